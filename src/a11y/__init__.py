"""Accessibility checks named and judged like axe-core (issue 31), over an element tree, sans-IO.

`tree` (the element records), `aria` (WAI-ARIA 1.2 as axe-core 4.14.1 encodes it, from
data/aria.json), `roles` (an element's explicit and implicit role), `hidden` (what the markup
decides is hidden), `accname` (the Accessible Name Computation 1.2), `tables`, `checks` and
`rule_base` (what rules share), `rules_*` (the static rules, one module per family), `rules`
(the table of them), `findings` (what a rule reports). docs/accessibility.md.
"""
