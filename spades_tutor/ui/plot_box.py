"""A plot on a page: its one-line reading, the box plotly draws it in, and its data in a disclosure.

The reading comes first: the page's landmarks make the plot box a figure named by the reading just
before it. Under the plot, a closed native disclosure ("Data of this plot") holds the table of the
numbers it draws, in a scroller the keyboard can reach.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from . import PLOTLY_SCRIPT

#: the class of a small plot's box (app.css gives it its height)
SMALL = "st-plot-small"
#: how much larger a plot's words are in projector mode: a little more than the page's text (17 to 24 px),
#: as a plot's ticks start smaller (14 px) and are read from the back of the room
PROJECTOR_FONT_SCALE = 1.5
#: and how much taller a plot is, so the larger words leave its bars room
PROJECTOR_HEIGHT_SCALE = 1.25

# Draws a plot with plotly, loaded by the page the first time it draws one (and then kept). The
# figure's JSON is in the script element before this one; the plot goes in the element before that.
_DRAW_JS = """(function () {
  var me = document.currentScript, spec = me.previousElementSibling, box = spec.previousElementSibling;
  var fig = JSON.parse(spec.textContent);
  if (!window.stPlotly) {
    window.stPlotly = new Promise(function (done, failed) {
      var base = (document.body.getAttribute("data-base-url") || "/").replace(/voila\\/$/, "");
      var script = document.createElement("script");
      var amd = window.define;
      if (amd && amd.amd) { window.define = undefined; }  // plotly's bundle then sets window.Plotly
      script.src = base + "%s?v=%s";
      script.onload = function () { window.define = amd; done(window.Plotly); };
      script.onerror = function () { window.define = amd; window.stPlotly = null; failed(); };
      document.head.appendChild(script);
    });
  }
  // The plot's look follows the page. In projector mode its words (ticks, titles, legend, hover) grow
  // with the page's text, the plot grows taller to leave its bars room, and a legend under it moves
  // down, clear of the larger axis title. Titles too long for the plot's width (a phone, a narrow
  // window, the projector's larger words) break into lines instead of running out of the box. The
  // look is set again when projector mode is turned on or off, or the window resized, under a plot
  // already drawn.
  function text(title) { return !title ? "" : typeof title === "string" ? title : title.text || ""; }
  var layout = fig.layout, legend = layout.legend || {};
  box.stLook = {
    font: (layout.font && layout.font.size) || 14,
    height: layout.height,
    top: layout.margin && typeof layout.margin.t === "number" ? layout.margin.t : 100,  // plotly's own top margin is 100
    legend: typeof legend.y === "number" && legend.y < 0 ? legend.y : null,
    // words the figure sizes itself (a bar chart's ticks, a note on a bar): they grow with the rest
    sizes: ["xaxis.tickfont.size", "yaxis.tickfont.size", "title.font.size", "legend.font.size"]
      .concat((layout.annotations || []).map(function (_a, i) { return "annotations[" + i + "].font.size"; }))
      .map(function (path) { return [path, get(layout, path)]; })
      .filter(function (p) { return typeof p[1] === "number"; }),
    titles: [
      ["title.text", text(layout.title), 1.4], ["xaxis.title.text", text((layout.xaxis || {}).title), 1.2],
      ["yaxis.title.text", text((layout.yaxis || {}).title), 1.2]
    ]
  };
  function steps(path) { return path.replace(/]/g, "").split(/[.[]/); }  // "a[0].b" -> ["a", "0", "b"]
  function get(obj, path) {
    return steps(path).reduce(function (at, p) { return at && typeof at === "object" ? at[p] : undefined; }, obj);
  }
  function lines(words, chars) {  // greedy: as many words on each line as fit in ``chars`` characters
    var out = [], line = "";
    words.split(" ").forEach(function (word) {
      if (line && line.length + 1 + word.length > chars) { out.push(line); line = word; }
      else { line = line ? line + " " + word : word; }
    });
    out.push(line);
    return out.join("<br>");
  }
  function look(app, el) {
    var large = app && app.classList.contains("st-app-large"), k = large ? %s : 1, b = el.stLook;
    var font = Math.round(k * b.font), height = Math.round((large ? %s : 1) * b.height);
    var width = el.clientWidth || 600, want = {"font.size": font, height: height};
    // room for each title, in characters of its size (about half an em wide in the plot's sans-serif font)
    // (the y axis's along the plot area: a guess until the plot is drawn, then its measured height, which
    // only shrinks while the plot settles, so a title broken into lines is not joined again, and so on)
    var area = Math.min(el.stRoom || Infinity, el._fullLayout && el._fullLayout._size ? el._fullLayout._size.h + 10 : height - 170);
    el.stRoom = area;
    var room = {"title.text": 0.94 * width, "xaxis.title.text": width - 40, "yaxis.title.text": area};
    b.titles.forEach(function (t) {
      if (!t[1]) { return; }
      var wrapped = lines(t[1], Math.max(8, Math.floor(room[t[0]] / (0.52 * t[2] * font)))), n = wrapped.split("<br>").length;
      want[t[0]] = wrapped;
      if (t[0] === "title.text") { want["margin.t"] = b.top + (n - 1) * Math.round(1.3 * t[2] * font); }
    });
    if (b.legend !== null) { want["legend.y"] = k * b.legend; }
    b.sizes.forEach(function (p) { want[p[0]] = Math.round(k * p[1]); });
    return want;
  }
  // A look as plotly takes it: the height is the box's (set in its style), as the width is the page's.
  // (A height given to plotly would pin the width as well: the plot would stop following the page's.)
  function sized(want) {
    var out = Object.assign({autosize: true}, want);
    delete out.height;
    return out;
  }
  function apply(want, to) {  // ``want``'s dotted keys set in a layout object
    Object.keys(want).forEach(function (key) {
      var path = steps(key), at = to;
      path.slice(0, -1).forEach(function (p) {
        at[p] = Array.isArray(at[p]) ? at[p].slice() : typeof at[p] === "object" && at[p] !== null ? Object.assign({}, at[p])
          : typeof at[p] === "string" ? {text: at[p]} : {};
        at = at[p];
      });
      at[path[path.length - 1]] = want[key];
    });
  }
  // Once drawn (and whenever the page changes under it): set the look wanted now if the plot has another,
  // then move a legend under the plot down until it is clear of the x axis's title and ticks (their
  // height depends on the words, the width and how plotly turned the ticks: measured, not guessed).
  // Each change moves the plot area the look was measured on, so look again, up to ``tries`` times.
  function settle(Plotly, app, el, tries) {
    if (!tries || !el._fullLayout) { return Promise.resolve(); }
    var again = function () { return settle(Plotly, app, el, tries - 1); }, now = look(app, el);
    if (JSON.stringify(now) !== el.stWant) {
      el.stWant = JSON.stringify(now);
      el.style.height = now.height + "px";
      return Plotly.relayout(el, sized(now)).then(again);
    }
    var above = el.querySelector(".g-xtitle") || el.querySelector(".xaxislayer-above"), legend = el.querySelector(".legend");
    if (el.stLook.legend === null || !above || !legend || !el._fullLayout._size.h) { return Promise.resolve(); }
    var overlap = above.getBoundingClientRect().bottom + 6 - legend.getBoundingClientRect().top;
    if (overlap <= 0) { return Promise.resolve(); }
    return Plotly.relayout(el, {"legend.y": el._fullLayout.legend.y - overlap / el._fullLayout._size.h}).then(again);
  }
  // One change to a plot at a time: plotly's redraws of one plot must not overlap.
  function queue(el, change) {
    el.stQueue = (el.stQueue || Promise.resolve()).then(change).catch(function () {});
  }
  window.stPlotly.then(
    function (Plotly) {
      var app = box.closest(".st-app"), want = look(app, box);  // the box is in the page by now (not yet when this script began)
      apply(sized(want), fig.layout);
      delete fig.layout.height;
      box.style.height = want.height + "px";
      box.stWant = JSON.stringify(want);
      // in the app, the plot follows the page's width by the app's resize handler below, not by plotly's
      // own (which would redraw it at the same time as the handler)
      var config = Object.assign({}, fig.config, app ? {responsive: false} : {});
      queue(box, function () {
        return Plotly.newPlot(box, fig.data, fig.layout, config).then(function () {
          box.stRoom = null;
          return settle(Plotly, app, box, 8);  // measured now; and projector mode may have changed while it was drawn
        });
      });
      if (app && !app.stPlotLook) {
        app.stPlotLook = true;
        var again = function (resized) {
          app.querySelectorAll(".st-plotly.js-plotly-plot").forEach(function (el) {
            if (!el.stLook) { return; }
            queue(el, function () {
              el.stRoom = null;
              return (resized ? Plotly.Plots.resize(el) : Promise.resolve()).then(function () { return settle(Plotly, app, el, 8); });
            });
          });
        }, timer = null;
        new MutationObserver(function () { again(false); }).observe(app, {attributes: true, attributeFilter: ["class"]});
        window.addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(function () { again(true); }, 150); });
      }
    },
    function () { box.textContent = "The plot could not be drawn (its script did not load): reload the page."; }
  );
})();"""


def plot_slot(small: bool = False) -> w.Output:
    """A box one plot is drawn in; it keeps its place on the page and only its content changes."""
    out = w.Output(layout=w.Layout(width="100%"))
    out.add_class("st-plot")
    if small:
        out.add_class(SMALL)
    return out


def draw(slot: w.Output, spec: Any, height: int | None = None) -> None:
    """Show a plot's JSON in ``slot``, drawn by plotly at the slot's full width.

    Two forms of one figure: plotly's own (``application/vnd.plotly.v1+json``, which JupyterLab's
    plotly extension draws, as on the hub or Binder) and an HTML one that loads plotly from the app's
    server the first time a page draws a plot. The app's server leaves that extension out of its
    pages (4.7 MiB of script that every page loaded, though only a few draw a plot), so its pages
    take the HTML form.
    """
    from ..lab.plots import MIME, PLOT_HEIGHT, bundle

    data = bundle(spec, PLOT_HEIGHT if height is None else height)
    data["text/html"] = plot_html(data[MIME])
    slot.outputs = ({"output_type": "display_data", "data": data, "metadata": {}},)


def plot_html(figure: dict[str, Any]) -> str:
    """The HTML form of a plot (see ``draw``): a box, the figure's JSON, the script that draws it.

    >>> h = plot_html({"data": [{"type": "bar", "x": ["</script><b>"], "y": [1]}], "layout": {"height": 300}})
    >>> h.count("</script>"), "<b>" in h, 'style="width:100%;height:300px"' in h
    (2, False, True)
    """
    import json
    from importlib.metadata import version

    height = int(figure.get("layout", {}).get("height", 440))
    # "<" escaped: the JSON cannot end its script element, whatever a label holds
    spec = json.dumps(figure, separators=(",", ":")).replace("<", "\\u003c")
    script = _DRAW_JS % (
        PLOTLY_SCRIPT,
        html.escape(version("plotly"), quote=True),
        PROJECTOR_FONT_SCALE,
        PROJECTOR_HEIGHT_SCALE,
    )
    return (
        f'<div class="st-plotly" style="width:100%;height:{height}px"></div>'
        f'<script type="application/json">{spec}</script>'
        f"<script>{script}</script>"
    )


def data_box() -> w.HTML:
    """The box under a plot that holds its data table, in a closed disclosure (empty until filled)."""
    box = w.HTML()
    box.add_class("st-plot-data")
    return box


def fill_data(box: w.HTML, spec: Any, caption: str, table_html: str | None = None) -> None:
    """Put the numbers ``spec`` plots in ``box``: a native disclosure the keyboard opens, holding its table
    (``data_table``'s, one row per point, unless the page gives a table of its own in ``table_html``)."""
    from ..lab.plots import data_table

    # the scroller is a named region in the tab order, so the keyboard can scroll a long table too
    name = html.escape(f"Data of this plot: {caption}", quote=True)
    inner = data_table(spec, caption) if table_html is None else table_html
    table = f'<div class="st-lab-scroll" role="region" tabindex="0" aria-label="{name}">{inner}</div>'
    box.value = f"<details><summary>Data of this plot</summary>{table}</details>"


def reading_html(title: str, text: str) -> str:
    """A plot's one-line reading, under its title in bold (or, with no title, the reading in bold)."""
    if not title:
        return f'<div class="st-reading"><b>{html.escape(text)}</b></div>'
    return f'<div class="st-reading"><b>{html.escape(title)}.</b> {html.escape(text)}</div>'


def key_html(key: tuple[tuple[str, str], ...]) -> str:
    """A plot's key under it, ``(what, colour)`` each: a swatch and its words, wrapping on a narrow page."""
    items = "".join(
        f'<li><span class="st-swatch" style="background:{html.escape(colour)}" aria-hidden="true"></span>'
        f"{html.escape(what)}</li>"
        for what, colour in key
    )
    return f'<ul class="st-plot-key" aria-label="Key">{items}</ul>' if key else ""
