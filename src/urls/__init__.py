"""URLs as browsers read them, and what the crawler does with them.

A leaf package: it imports only the standard library and `idna`, so every other package may use
it. One module per concept:

| module | what it holds |
|---|---|
| `parser` | the WHATWG URL Standard's basic URL parser for special schemes: `parse_url`, `Url` |
| `host` | the URL Standard's host parser: UTS #46 domains, IPv4 forms, IPv6 |
| `percent` | percent-encode sets, and the crawler's RFC 3986 percent-encoding normalisation |
| `resolve` | resolving extracted attributes against the document base, with fast paths |
| `normalise` | the crawler's canonical URL, `same_site`, origins |
| `private_hosts` | the SSRF host policy and `PrivateHosts`: the one decision every fetch path asks |
| `special_purpose` | the IANA IPv4 and IPv6 Special-Purpose Address Registries, row by row |
| `embedded_ipv4` | the IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4, Teredo ...) |
| `start_url` | validating the URL a user asks to audit |
"""
