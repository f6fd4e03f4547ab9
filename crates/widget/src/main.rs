fn main() {
    console_error_panic_hook::set_once();
    permlab_widget::mount_all();
}
