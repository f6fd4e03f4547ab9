//! The conformance fixtures are copies of the reference data computed by the real harnesses.
//! They must stay byte-identical: an edited expected value would make a test pass by lying.

use std::path::Path;

#[test]
fn conformance_fixtures_are_byte_identical_to_the_shared_reference() {
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/conformance");
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance");
    if !shared.is_dir() {
        eprintln!("skipped: {} is not present", shared.display());
        return;
    }
    let mut compared = 0;
    for entry in std::fs::read_dir(&shared).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        let copy = ours.join(name);
        let expected = std::fs::read(&path).unwrap();
        let actual = std::fs::read(&copy).unwrap_or_else(|e| {
            panic!(
                "{} is missing from fixtures/conformance: {e}",
                copy.display()
            )
        });
        assert!(
            expected == actual,
            "{} differs from {}",
            copy.display(),
            path.display()
        );
        compared += 1;
    }
    assert_eq!(compared, 8, "expected the eight conformance files");
}
