#include "report/html/html_canvas_heatmap.hpp"

#include <algorithm>
#include <cstdint>

#include "report/html/heatmap_codes.hpp"
#include "report/html/script_json.hpp"
#include "report/sweep_matrix.hpp"
#include "util/base64.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// Paints every figure.canvasmap from its JSON and the page's #heatmap-nodes; cells stay
// square, 1 to 12 pixels, so 1,024 nodes fit a 1,030-pixel canvas.
constexpr const char* kScript = R"(<script>
(function () {
  var fabric = JSON.parse(document.getElementById('heatmap-nodes').textContent);
  var nodes = fabric.nodes, n = nodes.length, margin = 6;
  var cell = Math.max(1, Math.min(12, Math.floor(1024 / n)));
  var side = margin + n * cell;
  document.querySelectorAll('figure.canvasmap').forEach(function (figure) {
    var data = JSON.parse(figure.querySelector('script').textContent);
    var raw = atob(data.cells), codes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; ++i) codes[i] = raw.charCodeAt(i);
    var rgb = data.colours.map(function (c) {
      var v = parseInt(c.slice(1), 16);
      return [v >> 16, (v >> 8) & 255, v & 255];
    });
    var canvas = figure.querySelector('canvas');
    canvas.width = canvas.height = side;
    var context = canvas.getContext('2d');
    var image = context.createImageData(side, side), pixels = image.data;
    pixels.fill(255);
    for (var row = 0; row < n; ++row) {
      for (var column = 0; column < n; ++column) {
        var colour = row === column ? [68, 68, 68] : rgb[codes[row * n + column]];
        for (var y = 0; y < cell; ++y) {
          var at = ((margin + row * cell + y) * side + margin + column * cell) * 4;
          for (var x = 0; x < cell; ++x, at += 4) {
            pixels[at] = colour[0]; pixels[at + 1] = colour[1]; pixels[at + 2] = colour[2];
          }
        }
      }
    }
    context.putImageData(image, 0, 0);
    var tick = Math.max(cell, 3);
    context.fillStyle = '#c62828';
    fabric.blamed.forEach(function (node) {
      context.fillRect(0, margin + node * cell, margin - 1, tick);
      context.fillRect(margin + node * cell, 0, tick, margin - 1);
    });
    var mark = Math.max(cell, 15);
    context.fillStyle = '#d50000';
    for (var k = 0; k < codes.length; ++k) {
      if (data.marked.indexOf(codes[k]) < 0) continue;
      var left = margin + (k % n) * cell + cell / 2 - mark / 2;
      var top = margin + Math.floor(k / n) * cell + cell / 2 - mark / 2;
      context.fillRect(Math.max(left, margin), Math.max(top, margin), mark, mark);
    }
    var caption = figure.querySelector('figcaption');
    canvas.addEventListener('mousemove', function (event) {
      var scale = canvas.width / canvas.clientWidth;
      var column = Math.floor((event.offsetX * scale - margin) / cell);
      var row = Math.floor((event.offsetY * scale - margin) / cell);
      if (row < 0 || column < 0 || row >= n || column >= n) return;
      var label = row === column ? 'itself' : data.labels[codes[row * n + column]] || 'no pair';
      caption.textContent = nodes[row] + ' \u2194 ' + nodes[column] + ': ' + label;
    });
  });
})();
</script>
)";

std::string fabric_json(const SweepReport& report) {
  std::vector<std::string> blamed;
  for (std::size_t i = 0; i < report.nodes.size(); ++i) {
    const bool is_blamed =
        std::any_of(report.blamed.begin(), report.blamed.end(),
                    [&](const NodeBlame& b) { return b.node == report.nodes[i]; });
    if (is_blamed) blamed.push_back(std::to_string(i));
  }
  return "<script type=\"application/json\" id=\"heatmap-nodes\">{\"nodes\":" +
         script_json_array(report.nodes) + ",\"blamed\":[" + join(blamed, ",") + "]}</script>\n";
}

bool has_code(const std::vector<std::uint8_t>& codes, bool (*wanted)(std::uint8_t)) {
  return std::any_of(codes.begin(), codes.end(), wanted);
}

bool is_broken_code(std::uint8_t c) {
  return c == heatmap_code::kFailed || c == heatmap_code::kTimedOut ||
         c == heatmap_code::kUnreachable;
}
bool is_slow_code(std::uint8_t c) { return c >= heatmap_code::kSlowFirst; }
bool is_not_run_code(std::uint8_t c) { return c == heatmap_code::kNotRun; }

std::string legend(const SweepReport& report, MatrixFigure figure,
                   const std::optional<HeatmapScale>& scale,
                   const std::vector<std::uint8_t>& codes) {
  std::string out = legend_start(figure, scale);
  if (has_code(codes, is_broken_code))
    out += "<span class=\"broken\">failed, timed out, unreachable (red square)</span>";
  if (has_code(codes, is_slow_code)) out += "<span class=\"slowfill\">slow</span>";
  if (has_code(codes, is_not_run_code)) out += "<span class=\"notrun\">not run</span>";
  if (!report.blamed.empty()) out += "<span class=\"blamedtick\">blamed node (red tick)</span>";
  return out + "</p>\n";
}

std::string figure_map(const SweepReport& report, MatrixFigure figure) {
  const auto scale = heatmap_scale(report, figure, std::nullopt);
  const auto codes = heatmap_codes(report, figure, scale);
  const std::string data =
      "{\"cells\":\"" + base64(codes) + "\",\"colours\":" + script_json_array(heatmap_colours()) +
      ",\"labels\":" + script_json_array(heatmap_labels(figure, scale)) + ",\"marked\":[" +
      std::to_string(heatmap_code::kFailed) + "," + std::to_string(heatmap_code::kTimedOut) + "," +
      std::to_string(heatmap_code::kUnreachable) + "]}";
  return "<figure class=\"canvasmap\"><script type=\"application/json\">" + data +
         "</script><canvas></canvas><figcaption>Point at a cell for its pair.</figcaption>"
         "</figure>\n" +
         legend(report, figure, scale, codes);
}

}  // namespace

std::string html_canvas_heatmaps(const SweepReport& report) {
  const std::string rails =
      report.rails > 1 ? ", the worst of " + std::to_string(report.rails) + " rails" : "";
  return fabric_json(report) + "<h2>" + matrix_title(report, MatrixFigure::kLatencyUs, rails) +
         "</h2>\n" + figure_map(report, MatrixFigure::kLatencyUs) + "<h2>" +
         matrix_title(report, MatrixFigure::kBandwidthGbps, rails) + "</h2>\n" +
         figure_map(report, MatrixFigure::kBandwidthGbps) + kScript;
}

}  // namespace ibkit
