//! tsv (being written)
