"""Binding behaviours written once, run on the CPython local platform and on the Pyodide doubles."""
