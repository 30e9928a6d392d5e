// Builds the explorer page into graphmem/service/page/ (package data, see pyproject.toml):
// `npm run build`. Everything comes from node_modules (npm ci): no CDN, nothing fetched
// when the page runs.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, "graphmem", "service", "page");
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(root, "ui", "src", "main.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["chrome110", "firefox110", "safari16"],
  outfile: join(out, "explorer.js"),
  legalComments: "eof",
  logLevel: "warning",
});
copyFileSync(join(root, "ui", "index.html"), join(out, "index.html"));
copyFileSync(join(root, "ui", "src", "explorer.css"), join(out, "explorer.css"));
console.log(`explorer page built in ${out}`);
