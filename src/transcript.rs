//! Transcripts.
