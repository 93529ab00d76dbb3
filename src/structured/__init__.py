"""Structured data (issue 32): schema.org's vocabulary, the vocabulary validator and Google's
rich-result rules, over the three syntaxes in the shape extruct gives (docs/structured-data.md)."""
