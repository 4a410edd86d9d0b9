//! Protocol command parsers (filled in by the protocol work).
