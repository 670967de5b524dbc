"""The API beside the pages (docs/api.md): reads of what the pages show, as JSON (`reads`), one
write, a matchday posted with a secretary's token (`writes`, `tokens`, `idempotency`, `bodies`),
the rate limits (`limits`), the tokens' admin (`admin`), and the API with its schema and docs page
(`site`)."""
