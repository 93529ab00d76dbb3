# The tier's Node packages, fetched wheels and JS harness hold nothing for pytest to collect.
collect_ignore_glob = ["node_modules/*", "wheels/*", "harness/*", ".cache/*"]
