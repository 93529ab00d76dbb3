"""The HTML report's one stylesheet and one script, and the Content-Security-Policy that allows
exactly them by their SHA-256 hashes (CSP Level 3 §8.3).

Apart from service/html_report.py so that the web app (api/webapp.py), whose policy must allow
the same two when it shows a report in a srcdoc frame (a srcdoc document inherits its parent's
policy), reads the hashes without importing the renderer and everything it brings (the charts,
the page table, the run history): the API's app imports the web app's module, so any process
that answers one request would load the renderer too.
"""

from __future__ import annotations

import base64
import hashlib

from service.page_table import SCRIPT

STYLE = """
:root{color-scheme:light;--ink:#1a1a1a;--muted:#4a4a4a;--line:#c8c8c8;--bg:#fff;--panel:#f4f5f7}
body{font:16px/1.5 system-ui,sans-serif;color:var(--ink);background:var(--bg);margin:0}
header,main,footer{max-width:72rem;margin:0 auto;padding:.5rem 1.5rem}h1{margin:.5rem 0}
a{color:#0b57d0}
a:focus,button:focus,input:focus,summary:focus,.wide:focus{outline:3px solid #0b57d0;outline-offset:2px}
.headline{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,18rem),1fr));gap:1rem}
.card{display:grid;grid-template-columns:88px 1fr;grid-template-rows:auto 1fr;gap:0 1rem;
align-items:center;background:var(--panel);border:1px solid var(--line);padding:.75rem 1rem}
.card h3{grid-column:1/-1;margin:0 0 .5rem}.card .meaning{margin:0}
.grade{font-size:2.5rem;font-weight:700;line-height:88px;margin:0;text-align:center;width:88px}
.gauges{display:flex;flex-wrap:wrap;gap:1rem 1.5rem;padding:0;margin:0;list-style:none}
.gauges li{display:flex;flex-direction:column;align-items:center;width:7rem;text-align:center}
.track{fill:none;stroke:#dfe1e5;stroke-width:8}.arc{fill:none;stroke-width:8}
.arc.tone-good{stroke:#1e7b34}.arc.tone-warn{stroke:#a35c00}.arc.tone-bad{stroke:#b3261e}
.arc.tone-neutral{stroke:#3b5b92}.gauge-value{font-size:19px;font-weight:700;fill:#1a1a1a}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.wide{overflow-x:auto;position:relative}a.view{font-size:.875rem;white-space:nowrap}
details.page{border-top:1px solid var(--line);padding:.25rem 0}details.page>summary{overflow-wrap:anywhere}
details.page dl{margin:.5rem 0 .5rem 1rem}details.page ul{margin:0;padding-left:1.25rem}
ul.tree{padding-left:1rem}ul.tree ul{padding-left:1.5rem}h1,main p,main li{overflow-wrap:anywhere}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,24rem),1fr));gap:1rem}
figure.chart{margin:0;padding:1rem;background:var(--panel);border:1px solid var(--line)}
figcaption{font-weight:600;margin-bottom:.5rem}
svg{max-width:100%;height:auto}
.axis{font-size:12px;fill:#1a1a1a}.axis.label{font-size:13px}
.bar.tone-neutral{fill:#3b5b92}.bar.tone-good{fill:#1e7b34}.bar.tone-warn{fill:#a35c00}.bar.tone-bad{fill:#b3261e}
.issue{border-top:1px solid var(--line);padding:.5rem 0}
.count{font-weight:400;color:var(--muted)}
.sev-critical{color:#b3261e}.sev-warning{color:#8a4b00}.sev-info{color:#3b5b92}
.affected li{overflow-wrap:anywhere}.detail{color:var(--muted)}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
td{overflow-wrap:anywhere}td.num{text-align:right}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}
.note{color:var(--muted)}code{background:var(--panel);padding:0 .25rem}
.failure{border:2px solid #b3261e;background:#fdecea;padding:.75rem 1rem;margin:0 0 1rem}
.failure h2{color:#b3261e;margin:0 0 .25rem}.failure p{margin:0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
[hidden]{display:none!important}
.verdict{border-bottom:1px solid var(--line)}
ol.actions{padding-left:2rem}ol.actions>li{margin:.5rem 0}ol.actions p{margin:.25rem 0}
.gain{font-weight:700}.scope,.where{color:var(--muted)}
.controls{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.5rem 0}
input,select,button{font:inherit}
.grid{stroke:#c8c8c8}.line{fill:none;stroke-width:2}.line.series-security{stroke-dasharray:6 4}
.series-health{stroke:#0b57d0}.series-security{stroke:#a35c00}
circle.series-health{fill:#0b57d0}circle.series-security{fill:#a35c00}
table.runs{margin:1rem 0}table.runs td{overflow-wrap:normal}caption{text-align:left;font-weight:600}
th button::after{content:" \\2195";content:" \\2195"/""}
th[aria-sort=ascending] button::after{content:" \\25B2";content:" \\25B2"/""}
th[aria-sort=descending] button::after{content:" \\25BC";content:" \\25BC"/""}
@media print{header,main,footer{max-width:none;padding:0}.charts{display:block}
figure.chart{break-inside:avoid;margin:0 0 1rem;border:0;padding:0}svg{max-width:100%}
a{color:inherit}}
"""


def csp_hash(text: str) -> str:
    """A CSP hash source for an inline element's exact text (CSP Level 3 §2.3.1)."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# The report's one stylesheet and one script, as CSP hash sources: its own policy allows exactly
# these, and so must any page that shows the report in a srcdoc frame (which inherits its policy).
STYLE_HASH = csp_hash(STYLE)
SCRIPT_HASH = csp_hash(SCRIPT)
CSP = (
    f"default-src 'none'; style-src {STYLE_HASH}; script-src {SCRIPT_HASH}; "
    "img-src 'none'; base-uri 'none'; form-action 'none'"
)
