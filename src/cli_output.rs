//! Standard output for the command-line tools (`quill perft`, `quill tablebase stats`, ...).
//!
//! `println!` panics when the reader has gone: `quill tablebase stats FILE | head -1` ended in
//! a panic message and exit code 101. The Rust runtime ignores `SIGPIPE`, and restoring its
//! default for the whole process would let one closed engine pipe kill `quill match`, so the
//! tools write through [`outln!`](crate::outln) instead: a reader that has gone ends the tool
//! quietly with success (the reader asked for no more, as `head` does), and any other failure
//! to write (a full disk behind a redirection) ends it with a message and exit code 2 rather
//! than a panic. The engine itself answers on its own writer and never uses this.

use std::fmt;
use std::io::{self, Write};

/// What [`line`] does when standard output cannot be written.
fn write_line(out: &mut impl Write, args: fmt::Arguments<'_>) -> io::Result<()> {
    out.write_fmt(args)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Writes one line to standard output; see the module documentation for a failed write.
pub fn line(args: fmt::Arguments<'_>) {
    let result = write_line(&mut io::stdout().lock(), args);
    if let Err(e) = result {
        std::process::exit(exit_code(&e, &mut io::stderr()));
    }
}

/// The exit code for a failed write to standard output, having said why on `err` unless the
/// reader simply went away.
fn exit_code(e: &io::Error, err: &mut impl Write) -> i32 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        0
    } else {
        // Nothing more can be done if standard error fails too.
        let _ = writeln!(err, "quill: cannot write to standard output: {e}");
        2
    }
}

/// `println!` for the tools: [`line()`] with `format!` arguments.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli_output::line(format_args!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails every write with `kind`.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_gone_reader_ends_quietly_and_another_failure_says_why() {
        let gone =
            write_line(&mut Failing(io::ErrorKind::BrokenPipe), format_args!("x")).unwrap_err();
        let mut said = Vec::new();
        assert_eq!(exit_code(&gone, &mut said), 0);
        assert!(said.is_empty());
        let full =
            write_line(&mut Failing(io::ErrorKind::StorageFull), format_args!("x")).unwrap_err();
        assert_eq!(exit_code(&full, &mut said), 2);
        let said = String::from_utf8(said).unwrap();
        assert!(
            said.starts_with("quill: cannot write to standard output: "),
            "{said}"
        );
    }

    #[test]
    fn a_line_ends_in_one_newline() {
        let mut out = Vec::new();
        write_line(&mut out, format_args!("a {}", 1)).unwrap();
        assert_eq!(out, b"a 1\n");
    }
}
