"""Checks beyond the Observatory: vulnerable JavaScript libraries (retire.js data), DNS and email
authentication over DNS-over-HTTPS, and version disclosure in headers and generator tags.

Pure modules (`jsregex`, `versions`, `retire_data`, `libraries`, `dns_records`, `spf`,
`email_auth`, `disclosure`, `findings`) take values and return records; the fetch-side drivers
(`doh`, `dns_audit`, `scripts`, `site_check`) reach the network only through `common.ports`.
"""
