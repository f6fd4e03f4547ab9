//! The table-only page bundle: the same start as `permlab-widget`, built without the `scenes`
//! feature, for pages whose placeholders are all table widgets (the loader picks it).

fn main() {
    permlab_widget::start();
}
