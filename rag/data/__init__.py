"""Data layer: the read-only source table, its column roles, the chunker, embeddings and the index."""
