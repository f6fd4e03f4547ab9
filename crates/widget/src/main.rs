use leptos::prelude::*;
use permlab_widget::{App, Lang};

fn main() {
    console_error_panic_hook::set_once();
    let lang = document()
        .document_element()
        .map(|e| e.get_attribute("lang").unwrap_or_default())
        .unwrap_or_default();
    leptos::mount::mount_to_body(move || view! { <App lang=Lang::from_tag(&lang)/> });
}
