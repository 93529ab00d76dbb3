"""The demo site `siteaudit demo` serves and audits: a small shop with planted problems (shop), and
the loopback HTTP server it runs on (server), which the tests' fixture sites share."""
