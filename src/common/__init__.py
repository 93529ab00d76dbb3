"""The small pieces every layer may use, importing nothing else from the project.

* `ports`: what the core asks of the world besides bindings (outbound HTTP, the clock).
* `bindings`: Protocols of the Worker bindings the core uses (`Env`, D1, the scratchpad, Workflows).
* `wire`: records to and from JSON, with per-field validation (`JsonRecord`, `WireError`).
* `settings`: the crawl's limits and defaults (`CRAWL`).
* `failures`: the closed vocabulary of failed audits (`ErrorCode`) and its classification.
* `events`: the structured log line of a terminal audit transition.
* `fetch_class`: how a fetch ended (`FetchClass`) and its classification.
"""
