//! The scenes bundle (see `crates/widget/src/scenes`): its own wasm, so that the table widget's
//! download carries none of the scenes. Built with the `scenes` feature.

fn main() {
    permlab_widget::start_scenes();
}
