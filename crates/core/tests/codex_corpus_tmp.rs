#[test]
fn dump() {
    let mut names: Vec<_> = std::fs::read_dir("/work/shared/corpus/codex")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    names.sort();
    for p in names {
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.file_name().unwrap().to_str().unwrap();
        match permlab_core::codex::Policy::parse(name, &text) {
            Ok(pol) => println!("{name}: OK {} rules", pol.rules().len()),
            Err(e) => println!("{name}: ERR {}\n{}", e, e.cli_text()),
        }
    }
}
