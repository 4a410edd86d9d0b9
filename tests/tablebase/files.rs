//! Table files: one reads back as it was written, and each kind of damage is refused with its
//! own error.

use super::*;

use quill::tablebase::format::ReadError;
use quill::tablebase::{LoadError, Tables, format};
use quill::variants::apocalypse::Rules;

#[test]
fn a_bad_file_is_refused() {
    let t = table(Rules::Classic);
    let good = format::encode(&t);
    let back = format::decode(&good).expect("a written table reads back");
    assert_eq!(back.rules(), Rules::Classic);
    assert_eq!(back.len(), t.len());
    for s in t.signatures() {
        assert_eq!(back.signature_values(*s), t.signature_values(*s));
    }
    let err = |b: &[u8]| format::decode(b).err().expect("refused");
    assert!(matches!(err(&[]), ReadError::BadMagic));
    assert!(matches!(err(b"PNG\0\0\0\0\0garbage"), ReadError::BadMagic));
    assert!(matches!(err(&good[..30]), ReadError::ShortHeader(30)));
    let cut = err(&good[..good.len() - 1]);
    assert!(matches!(cut, ReadError::Length { .. }), "{cut}");
    assert!(cut.to_string().contains("truncated"), "{cut}");
    let mut long = good.clone();
    long.push(0);
    assert!(err(&long).to_string().contains("trailing"));
    let mut flipped = good.clone();
    let mid = good.len() / 2;
    flipped[mid] ^= 1;
    assert!(matches!(err(&flipped), ReadError::Checksum));
    let mut version = good.clone();
    version[8] = 9;
    assert!(matches!(err(&version), ReadError::Version(9)));
    let mut pieces = good.clone();
    pieces[11] = 4;
    assert!(matches!(
        err(&pieces),
        ReadError::Signatures {
            got: 5,
            pieces: 4,
            expected: 15
        }
    ));
    let mut flags = good.clone();
    flags[13] = 5;
    assert!(matches!(err(&flags), ReadError::Flags));
    let dir = std::env::temp_dir().join(format!("quill-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert!(matches!(
        Tables::load(dir.to_str().unwrap()),
        Err(LoadError::NoTables(_))
    ));
    let path = dir.join("cut.qtb");
    std::fs::write(&path, &good[..good.len() / 3]).unwrap();
    assert!(matches!(format::read(&path), Err(ReadError::Length { .. })));
    let e = Tables::load(dir.to_str().unwrap()).err().expect("refused");
    assert!(
        matches!(&e, LoadError::File(p, ReadError::Length { .. }) if *p == path),
        "{e}"
    );
    assert!(
        e.to_string().starts_with(&format!("{}: ", path.display())),
        "{e}"
    );
    std::fs::write(&path, &good).unwrap();
    assert!(Tables::load(dir.to_str().unwrap()).is_ok());
    assert!(matches!(
        format::read(&dir.join("missing.qtb")),
        Err(ReadError::Open(_))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}
