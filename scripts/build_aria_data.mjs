// Builds src/a11y/data/aria.json from the axe-core package in node_modules (MPL-2.0):
// WAI-ARIA 1.2 roles and attributes, HTML elements' implicit and allowed roles (HTML-AAM, ARIA in
// HTML) and the audited rules' metadata, as axe-core encodes them. Run through
// scripts/build_aria_data.py, which writes the file; this only prints the JSON.
// Sources: axe.utils.getStandards() (axe-core lib/standards/), axe.commons.standards
// .implicitHtmlRoles (lib/commons/standards/implicit-html-roles.js), axe.utils.validLangs()
// and axe.commons.text.autocomplete.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const axe = require(process.argv[2]);
const ruleIds = process.argv.slice(3);

const standards = axe.utils.getStandards();
const implicit = {};
for (const [tag, role] of Object.entries(axe.commons.standards.implicitHtmlRoles)) {
  // A function decides from the element's context; siteaudit's a11y.roles ports each one.
  implicit[tag] = typeof role === 'string' ? role : { conditional: true };
}
const rules = {};
for (const rule of axe._audit.rules) {
  if (!ruleIds.includes(rule.id)) continue;
  const criteria = rule.tags
    .filter((tag) => /^wcag\d{3,4}$/.test(tag))
    .map((tag) => `${tag[4]}.${tag[5]}.${tag.slice(6)}`);
  rules[rule.id] = {
    impact: rule.impact,
    wcag: criteria,
    level: rule.tags.find((tag) => /^wcag2\d?a+$/.test(tag)) ?? 'best-practice',
    help: axe._audit.data.rules[rule.id].help,
  };
}
// Key order is kept: an element's variants apply in axe-core's order (a later match wins).
process.stdout.write(
  JSON.stringify(
    {
      source: `axe-core ${axe.version}`,
      roles: standards.ariaRoles,
      attributes: standards.ariaAttrs,
      elements: standards.htmlElms,
      implicitRoles: implicit,
      languages: axe.utils.validLangs(),
      autocomplete: axe.commons.text.autocomplete,
      rules,
    },
  ),
);
