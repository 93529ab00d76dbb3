"""badseo: a local website with one SEO defect per page, for end-to-end audits (original system
§6.3). `site.py` holds the fixtures as data and serves them; `golden.json` is the expected issue
set, generated from that data by `python -m tests.badseo.golden --write`."""
