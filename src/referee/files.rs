//! The match's files besides the results file: reading an openings file, and cleaning the PGN
//! file on resumption so that it keeps each recorded complete game once.

use super::*;

/// Reads an openings file: one FEN a line; blank lines and `#` comments are skipped.
///
/// # Errors
/// The file cannot be read, or a FEN is not a position of the variant.
pub fn read_openings(path: &Path, variant: Variant) -> Result<Vec<String>, MatchError> {
    let size = fs::metadata(path)
        .map_err(|e| MatchError::Io(path.to_owned(), e))?
        .len();
    if size > MAX_OPENINGS_BYTES {
        return Err(MatchError::Config(format!(
            "{}: {size} bytes is more than the maximum for an openings file, {MAX_OPENINGS_BYTES}",
            path.display()
        )));
    }
    let text = fs::read_to_string(path).map_err(|e| MatchError::Io(path.to_owned(), e))?;
    let mut fens = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        Game::from_fen(variant, line)
            .map_err(|e| MatchError::Config(format!("{}:{}: {e}", path.display(), n + 1)))?;
        fens.push(line.to_string());
    }
    if fens.is_empty() {
        return Err(MatchError::Config(format!(
            "{}: no openings",
            path.display()
        )));
    }
    Ok(fens)
}

/// Drops from a PGN file every game whose round is not among `done` (a game cut off by a kill,
/// or written before its result line was), and repeated rounds. It works on the file's bytes,
/// whatever they are (invalid UTF-8, CRLF endings): a game starts at a line `[Event `, its round
/// is its `[Round "N"]` line, and it is complete when it ends with an empty line.
pub(super) fn clean_pgn(path: &Path, done: &HashSet<u32>) -> Result<(), MatchError> {
    let io = |e| MatchError::Io(path.to_owned(), e);
    let text = match fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(e)),
    };
    let mut starts: Vec<usize> = (0..text.len())
        .filter(|&i| (i == 0 || text[i - 1] == b'\n') && text[i..].starts_with(b"[Event "))
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts.push(text.len());
    let mut kept = Vec::new();
    let mut seen = HashSet::new();
    for w in starts.windows(2) {
        let chunk = &text[w[0]..w[1]];
        let round = chunk.split(|&b| b == b'\n').find_map(|l| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            let n = l.strip_prefix(b"[Round \"")?.strip_suffix(b"\"]")?;
            std::str::from_utf8(n).ok()?.parse::<u32>().ok()
        });
        let complete = chunk.ends_with(b"\n\n") || chunk.ends_with(b"\r\n\r\n");
        if let Some(r) = round
            && r >= 1
            && complete
            && done.contains(&(r - 1))
            && seen.insert(r)
        {
            kept.extend_from_slice(chunk);
        }
    }
    if kept != text {
        log::warn!(
            "{}: keeping {} of {} bytes: the games recorded in the results file, once each",
            path.display(),
            kept.len(),
            text.len()
        );
        let tmp = path.with_extension("pgn.tmp");
        fs::write(&tmp, &kept).map_err(io)?;
        fs::rename(&tmp, path).map_err(io)?;
    }
    Ok(())
}
