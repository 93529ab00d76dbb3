"""Accessibility checks named and judged like axe-core (issue 31), over an element tree, sans-IO.

`tree` (the element records), `aria` (WAI-ARIA 1.2 as axe-core 4.14.1 encodes it, from
data/aria.json), `roles` (an element's explicit and implicit role), `hidden` (what is decidable
without layout), `accname` (the Accessible Name Computation 1.2), `selector` and `findings` (what
a rule reports), `rules_*` (the static rules, one module per family), `rules` (the table of them).
"""
