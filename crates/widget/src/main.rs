fn main() {
    permlab_widget::start();
}
