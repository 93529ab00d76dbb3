"""The MCP endpoint (`transport` is its entry point; DEVELOPERS.md lists the modules)."""

# The endpoint's path, here rather than in `transport` so that api.app routes to it without
# importing the server: its tools and schemas load with the first /mcp request.
PATH = "/mcp"
