//! `quill match`, the engine-vs-engine referee: the results file and the summary of a match.

pub mod results;
pub mod stats;
