fn main() {
    permlab_widget::mount_all();
}
