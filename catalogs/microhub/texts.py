# ruff: noqa: E501  (authored prose and file contents: one record per line reads best)
"""The authored text behind the MicroHub catalog: files, commit messages, issues, pull requests
and replies. generate.py turns these into records with ids, authors and ages."""

README = """# Atlas web

Atlas web is the browser client of the Atlas mapping platform: vector maps, turn-by-turn
routing and offline regions that keep working without a connection.

## Getting started

```
npm ci
npm run dev
```

The dev server runs on http://localhost:5173 and proxies tile requests to staging.

## Scripts

- `npm run build` builds the production bundle into `dist/`
- `npm test` runs the unit tests with Vitest
- `npm run lint` checks the code with ESLint

## Contributing

Read CONTRIBUTING.md first. Every pull request needs a green CI run and one approval.

## License

Apache-2.0
"""

FILES = [
    (".github", "dir", ""),
    (".github/workflows", "dir", ""),
    (".github/workflows/ci.yml", "file", "name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with: {node-version: 20}\n      - run: npm ci\n      - run: npm run lint\n      - run: npm test\n"),
    (".github/workflows/deploy.yml", "file", "name: Deploy\non:\n  push:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    environment: production\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm run build\n      - run: ./scripts/deploy.sh dist\n"),
    ("docs", "dir", ""),
    ("docs/offline.md", "file", "# Offline regions\n\nA pinned region stores vector tiles for zoom 8 to 15 in IndexedDB.\nRegions larger than 400 MB ask for confirmation first.\n"),
    ("docs/routing.md", "file", "# Routing\n\nRoutes are computed by the routing service and drawn as a line layer.\nExport writes GPX 1.1.\n"),
    ("public", "dir", ""),
    ("public/index.html", "file", "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Atlas</title></head>\n<body><div id=\"root\"></div><script type=\"module\" src=\"/src/main.tsx\"></script></body>\n</html>\n"),
    ("public/manifest.json", "file", "{\n  \"name\": \"Atlas\",\n  \"short_name\": \"Atlas\",\n  \"display\": \"standalone\",\n  \"start_url\": \"/\"\n}\n"),
    ("scripts", "dir", ""),
    ("scripts/deploy.sh", "file", "#!/bin/sh\nset -eu\n# Upload the built bundle to the static host.\nrsync -a --delete \"$1/\" deploy@static.brightline.example:/srv/atlas/\n"),
    ("src", "dir", ""),
    ("src/main.tsx", "file", "import { createRoot } from 'react-dom/client';\nimport { App } from './ui/App';\nimport { registerWorker } from './offline/worker';\n\nregisterWorker();\ncreateRoot(document.getElementById('root')!).render(<App />);\n"),
    ("src/map", "dir", ""),
    ("src/map/engine.ts", "file", "export interface View { lat: number; lon: number; zoom: number }\n\nexport class MapEngine {\n  private view: View = { lat: 0, lon: 0, zoom: 2 };\n\n  setView(next: View): void {\n    this.view = { ...next, zoom: Math.min(20, Math.max(0, next.zoom)) };\n  }\n\n  getView(): View {\n    return this.view;\n  }\n}\n"),
    ("src/map/layers.ts", "file", "export type LayerKind = 'base' | 'route' | 'pins';\n\nexport interface Layer { id: string; kind: LayerKind; visible: boolean }\n\nexport function toggle(layer: Layer): Layer {\n  return { ...layer, visible: !layer.visible };\n}\n"),
    ("src/map/tiles.ts", "file", "export const TILE_SIZE = 512;\n\nexport function tileUrl(z: number, x: number, y: number): string {\n  return `/tiles/${z}/${x}/${y}.pbf`;\n}\n"),
    ("src/offline", "dir", ""),
    ("src/offline/regions.ts", "file", "export interface Region { id: string; name: string; bytes: number }\n\nexport const MAX_REGION_BYTES = 400 * 1024 * 1024;\n\nexport function needsConfirmation(region: Region): boolean {\n  return region.bytes > MAX_REGION_BYTES;\n}\n"),
    ("src/offline/worker.ts", "file", "export function registerWorker(): void {\n  if ('serviceWorker' in navigator) {\n    navigator.serviceWorker.register('/sw.js');\n  }\n}\n"),
    ("src/routing", "dir", ""),
    ("src/routing/export.ts", "file", "import type { Route } from './types';\n\nexport function toGpx(route: Route): string {\n  const points = route.points.map(p => `<trkpt lat=\"${p.lat}\" lon=\"${p.lon}\"/>`).join('');\n  return `<gpx version=\"1.1\"><trk><trkseg>${points}</trkseg></trk></gpx>`;\n}\n"),
    ("src/routing/types.ts", "file", "export interface Point { lat: number; lon: number }\nexport interface Route { id: string; points: Point[]; meters: number }\n"),
    ("src/ui", "dir", ""),
    ("src/ui/App.tsx", "file", "import { SearchBox } from './SearchBox';\nimport { LayerPanel } from './LayerPanel';\n\nexport function App() {\n  return (\n    <main className=\"atlas\">\n      <SearchBox />\n      <LayerPanel />\n    </main>\n  );\n}\n"),
    ("src/ui/LayerPanel.tsx", "file", "export function LayerPanel() {\n  return <aside aria-label=\"Layers\" className=\"layers\" />;\n}\n"),
    ("src/ui/SearchBox.tsx", "file", "import { useState } from 'react';\n\nexport function SearchBox() {\n  const [query, setQuery] = useState('');\n  return <input aria-label=\"Search places\" value={query} onChange={e => setQuery(e.target.value)} />;\n}\n"),
    ("src/ui/theme.css", "file", ":root {\n  --atlas-accent: #2f6feb;\n  --atlas-bg: #ffffff;\n}\n\n.atlas { display: grid; grid-template-columns: 320px 1fr; height: 100vh; }\n"),
    ("src/util", "dir", ""),
    ("src/util/merge.ts", "file", "export function merge<T extends object>(a: T, b: Partial<T>): T {\n  return Object.assign({}, a, b);\n}\n"),
    (".gitignore", "file", "node_modules/\ndist/\n.env\n"),
    ("CONTRIBUTING.md", "file", "# Contributing\n\nOpen an issue before large changes. Keep pull requests small, with tests.\nWe review within two working days.\n"),
    ("LICENSE", "file", "Apache License\nVersion 2.0, January 2004\nhttp://www.apache.org/licenses/\n"),
    ("README.md", "file", README),
    ("package.json", "file", "{\n  \"name\": \"@brightline/atlas-web\",\n  \"version\": \"2.5.0-rc.1\",\n  \"private\": true,\n  \"scripts\": {\"dev\": \"vite\", \"build\": \"vite build\", \"test\": \"vitest\", \"lint\": \"eslint src\"}\n}\n"),
    ("tsconfig.json", "file", "{\n  \"compilerOptions\": {\"target\": \"ES2022\", \"strict\": true, \"jsx\": \"react-jsx\", \"module\": \"ESNext\"}\n}\n"),
    ("vite.config.ts", "file", "import { defineConfig } from 'vite';\nimport react from '@vitejs/plugin-react';\n\nexport default defineConfig({ plugins: [react()], server: { proxy: { '/tiles': 'https://tiles.staging.brightline.example' } } });\n"),
]

COMMITS = [
    "Initial import of the map shell", "Add tile URL helper", "Set up Vitest", "Add layer toggle",
    "Service worker registration", "Offline regions: store tiles in IndexedDB", "Route export to GPX",
    "Fix zoom clamping at level 20", "Dark map style", "Keyboard navigation for the layer panel",
    "Bump vite to 5.0", "Search box: debounce input", "Docs: offline regions", "Fix crash on worker update",
    "CI: cache npm", "Release 2.3.0", "Add region size confirmation", "Refactor map engine view state",
    "Fix blank tiles after resume", "Release 2.3.2", "Vector tile decoding in a worker",
    "Layer panel: screen reader names", "Routing: show distance in km and mi", "Docs: routing",
    "Release 2.4.0", "Deps: bump react to 18.3", "Search suggestions: keep focus", "Fix memory growth in tile cache",
    "Deploy workflow: production environment", "2.5.0-rc.1",
]

# Issues. "age" in minutes for the preloaded ones; arrivals get no comments (_role: arrival).
ISSUES = [
    {"title": "Tiles stay blank after waking the laptop", "labels": ["bug", "offline"], "age": 60 * 26,
     "body": "After the laptop sleeps for an hour, the map shows grey squares until a hard reload. Seen on Chrome 122 and Firefox 123."},
    {"title": "Add GPX import", "labels": ["enhancement"], "age": 60 * 24 * 9,
     "body": "We can export routes as GPX, but importing a track from a watch is not possible yet. A drop zone on the map would be enough."},
    {"title": "Layer panel loses focus after toggling", "labels": ["accessibility", "ui"], "age": 60 * 24 * 4,
     "body": "Pressing space on a layer checkbox toggles it but focus jumps back to the top of the page."},
    {"title": "Document the tile proxy in the dev setup", "labels": ["documentation", "good first issue"], "state": "closed",
     "age": 60 * 24 * 18, "body": "New contributors do not know that the dev server proxies /tiles to staging."},
    {"title": "Route line flickers when zooming", "labels": ["bug", "maps"], "age": 60 * 24 * 2,
     "body": "While pinch-zooming, the route line disappears for a frame or two. Only on WebGL1 devices."},
    {"title": "Offline region size estimate is too low", "labels": ["bug", "offline"], "state": "closed", "age": 60 * 24 * 12,
     "body": "The dialog said 120 MB but the region took 310 MB in storage. The estimate ignores zoom 15."},
    {"title": "Map freezes when a large region is pinned", "labels": ["bug", "performance"], "age": 60 * 30,
     "_role": "preload-unresponsive", "_note": "unresponsive_second: the first issue that calls the UI unresponsive (body only)",
     "body": "Pinning the whole of Portugal works, but while the tiles download the map stops reacting. After a few seconds the UI is completely unresponsive until the download finishes. A progress indicator would also help."},
    {"title": "Search suggestions flicker while typing", "labels": ["ui"], "state": "closed", "age": 60 * 24 * 6,
     "body": "Each keystroke clears the suggestion list before the new one arrives."},
    {"title": "Crash when exporting an empty route", "labels": ["bug"], "age": 300,
     "_role": "preload-repro", "_note": "repro_steps_second: the older issue (5 h) with steps to reproduce in its body",
     "body": "Exporting a route that has no points throws in toGpx and the dialog never closes.\n\nSteps to reproduce:\n1. Open the route panel\n2. Clear every waypoint\n3. Click Export, then GPX\n\nExpected: a message that the route is empty. Actual: an uncaught TypeError."},
    {"title": "Dark style: labels hard to read", "labels": ["accessibility"], "state": "closed", "age": 60 * 24 * 25,
     "body": "The grey labels on the dark style fail WCAG contrast at small zoom levels."},
    {"title": "Use vector tiles by default", "labels": ["enhancement", "maps"], "milestone": "2.5", "age": 60 * 24 * 15,
     "body": "Raster tiles are three times larger. The 2.5 release candidate already ships vector decoding."},
    {"title": "Distance shown in miles for metric locales", "labels": ["bug"], "state": "closed", "age": 60 * 24 * 8,
     "body": "With the browser set to de-DE the route summary still shows miles."},
    {"title": "Upgrade to React 18.3", "labels": ["dependencies"], "state": "closed", "age": 60 * 24 * 20,
     "body": "Needed for the new root API warnings to go away."},
    {"title": "Memory grows during long sessions", "labels": ["bug", "performance"], "age": 60 * 24 * 3,
     "body": "Leaving the map open for a day grows the tab to 2 GB. The tile cache never evicts decoded tiles."},
    {"title": "Question: can I self-host the tile server?", "labels": ["question"], "state": "closed", "age": 60 * 24 * 11,
     "body": "Is the tile server open source, or only the web client?"},
    {"title": "Keyboard shortcut to recenter the map", "labels": ["enhancement", "accessibility"], "state": "closed",
     "age": 60 * 24 * 16, "body": "Something like C to recenter on the current location would help keyboard users."},
    {"title": "Service worker serves a stale index.html", "labels": ["bug", "offline"], "state": "closed", "age": 60 * 24 * 5,
     "body": "After a deploy, some users get the old bundle until they close every tab."},
    {"title": "Add Portuguese translation", "labels": ["enhancement"], "state": "closed", "age": 60 * 24 * 27,
     "body": "Happy to contribute pt-BR and pt-PT strings."},
    {"title": "CI: lint step takes four minutes", "labels": ["performance"], "state": "closed", "age": 60 * 24 * 7,
     "body": "ESLint runs without a cache in CI. Caching .eslintcache should cut it down."},
    {"title": "Pinned regions list is not sorted", "labels": ["ui", "offline"], "state": "closed", "age": 60 * 24 * 10,
     "body": "Regions show in creation order; alphabetical would be easier to scan."},
    # --- arrivals (new_issue events) ---
    {"title": "Audit log for map data exports", "labels": ["enhancement", "security"], "_role": "arrival",
     "_note": "comment_on_compliance target: 'compliance' in the body only",
     "body": "Several enterprise customers export route data every week. Their security teams now ask who exported what and when. We need an audit log of exports, kept for a year, to pass their compliance reviews. A CSV download from the settings page would do for a start."},
    {"title": "Compliance page link is broken in the footer", "labels": ["bug", "documentation"], "_role": "arrival",
     "_note": "decoy for comment_on_compliance: the word only in the title",
     "body": "The footer link to the legal page returns a 404 since the docs moved. It should point to the new legal section."},
    {"title": "Export takes a long time for long routes", "labels": ["performance"], "_role": "arrival",
     "_note": "decoy for comment_on_compliance: exports, but nothing about audits or rules",
     "body": "A 900 km route takes eight seconds to export as GPX. Building the string in one pass should be much faster."},
    {"title": "Telemetry opt-out toggle in settings", "labels": ["enhancement"], "_role": "arrival",
     "_note": "decoy for comment_on_telemetry_noop: the word only in the title",
     "body": "Some admins want a switch in the settings page that turns off the anonymous usage counters for their whole organisation."},
    {"title": "Support passkeys for sign-in", "labels": ["enhancement", "auth"], "_role": "arrival",
     "_note": "decoy for comment_on_totp: sign-in methods, no TOTP",
     "body": "Passkeys would let people sign in without a password. Most browsers support WebAuthn now."},
    {"title": "2FA codes arrive late", "labels": ["bug", "auth"], "_role": "arrival",
     "_note": "decoy for comment_on_totp: 2FA via SMS, not TOTP",
     "body": "We only offer 2FA via SMS, and in some countries the code arrives after it has already expired. Can the code stay valid for longer?"},
    {"title": "TOTP setup screen cuts off the QR code", "labels": ["bug", "auth", "ui"], "_role": "arrival",
     "_note": "decoy for comment_on_totp: the word in the title only; the body says authenticator app",
     "body": "On a 13-inch screen the QR code on the authenticator app setup screen is cut off at the bottom and cannot be scanned."},
    {"title": "Document supported two-factor methods", "labels": ["documentation", "auth"], "_role": "arrival",
     "_note": "comment_on_totp target: the body names TOTP as a supported 2FA method",
     "body": "The security page does not say which second factors we accept. Please list them: TOTP authenticator apps are supported as a 2FA method since 2.3, and hardware keys since 2.4. SMS is being phased out."},
    {"title": "Can't reproduce the build locally", "labels": ["question"], "_role": "arrival",
     "_note": "decoy for repro_steps_second: 'reproduce' in the title only, no steps",
     "body": "The CI build passes but mine fails with a missing module error on Node 18. Which Node version do you use?"},
    {"title": "Route panel jumps when a waypoint is removed", "labels": ["bug", "ui"], "_role": "arrival",
     "_note": "decoy for repro_steps_second: says the reporter could not make it happen again, no steps",
     "body": "Removing a waypoint sometimes scrolls the route panel to the top. I tried a few times but could not make it happen again on purpose."},
    {"title": "Zoom buttons ignore double clicks", "labels": ["bug", "maps"], "_role": "arrival",
     "_note": "repro_steps_second target: the second issue with steps to reproduce (body only)",
     "body": "Double-clicking the + button zooms in only one level.\n\nSteps to reproduce:\n1. Open the map at zoom 10\n2. Double-click the zoom-in button\n3. Read the zoom level in the corner\n\nExpected: 12. Actual: 11."},
    {"title": "Unresponsive maintainers on the plugin repo", "labels": ["question"], "_role": "arrival",
     "_note": "decoy for unresponsive_second: the word in the title only",
     "body": "My pull request to the plugin repository has waited three weeks without a review. Who looks after it now?"},
    {"title": "Layout not responsive on small screens", "labels": ["ui"], "_role": "arrival",
     "_note": "decoy for unresponsive_second: 'not responsive' (the layout), never 'unresponsive'",
     "body": "Below 360 px the layer panel covers the whole map and the layout is not responsive at all."},
    {"title": "Search hangs with very long queries", "labels": ["bug", "performance"], "_role": "arrival",
     "_note": "unresponsive_second target: the second issue that calls the UI unresponsive (body only)",
     "body": "Pasting a 2,000-character address into the search box makes the tab freeze: the whole UI is unresponsive for about ten seconds while suggestions are computed."},
    {"title": "Add a scale bar", "labels": ["enhancement", "maps"], "_role": "arrival",
     "body": "A small scale bar in the bottom-left corner, in km or miles depending on the locale."},
    {"title": "Typo in the offline docs", "labels": ["documentation", "good first issue"], "_role": "arrival",
     "body": "docs/offline.md says 'IndexDB' in one place; it should be IndexedDB."},
    {"title": "Route colours are hard to tell apart", "labels": ["accessibility"], "_role": "arrival",
     "body": "Alternative routes use red and green, which many people cannot tell apart. Use a pattern too."},
    {"title": "Print view for routes", "labels": ["enhancement"], "_role": "arrival",
     "body": "A printable page with the map and the turn list would help people who plan trips on paper."},
    {"title": "Bump vite to 5.2", "labels": ["dependencies"], "_role": "arrival",
     "body": "5.2 fixes the dev server advisory listed under Security."},
    {"title": "Pins disappear after renaming", "labels": ["bug"], "_role": "arrival",
     "body": "Renaming a pin removes it from the map until the page is reloaded."},
    {"title": "Show elevation profile for routes", "labels": ["enhancement", "maps"], "_role": "arrival",
     "body": "Cyclists would like to see the climbs on a route before they start."},
    {"title": "Offline banner never goes away", "labels": ["bug", "offline"], "_role": "arrival",
     "body": "After the connection comes back, the offline banner stays until the next navigation."},
    {"title": "Right-to-left layout for Arabic", "labels": ["enhancement", "ui"], "_role": "arrival",
     "body": "The layer panel should move to the right and the icons should mirror for RTL locales."},
    {"title": "Slow first load on 3G", "labels": ["performance"], "_role": "arrival",
     "body": "The first visit downloads 2.4 MB of JavaScript before the map appears. Code splitting the routing panel would help."},
    {"title": "Allow sharing a map view by link", "labels": ["enhancement"], "_role": "arrival",
     "body": "Copy a link that opens the map at the same centre, zoom and layers."},
]

PULLS = [
    {"title": "Evict decoded tiles from the cache", "branch": "fix/tile-cache", "labels": ["performance"],
     "body": "Caps the decoded tile cache at 256 entries with an LRU. Fixes the memory growth in long sessions.", "age": 60 * 20},
    {"title": "Route export to GPX 1.1 with elevation", "branch": "feat/route-export", "checks": "failure",
     "body": "Adds elevation to exported track points when the routing service returns it.", "age": 60 * 24 * 2},
    {"title": "Bump vite from 5.0.12 to 5.2.8", "branch": "deps/vite-5", "labels": ["dependencies"],
     "body": "Bumps vite. Release notes and the advisory fix are linked in the changelog.", "age": 60 * 24},
    {"title": "Layer panel: keep focus after toggle", "branch": "a11y/layer-focus", "labels": ["accessibility"],
     "body": "Focus stays on the toggled checkbox. Adds a test with testing-library.", "age": 60 * 7, "checks": "pending"},
    {"title": "Docs: tile proxy in the dev setup", "branch": "docs/dev-proxy", "state": "merged",
     "body": "Explains the /tiles proxy and how to point it at a local tile server.", "age": 60 * 24 * 17},
    {"title": "Metric units by locale", "branch": "fix/units", "state": "merged",
     "body": "Chooses km or miles from the browser locale.", "age": 60 * 24 * 8},
    {"title": "Experimental: WebGPU renderer", "branch": "exp/webgpu", "state": "closed",
     "body": "Closing for now; the browser support is not there yet.", "age": 60 * 24 * 14},
    {"title": "Service worker: network first for index.html", "branch": "fix/stale-index", "state": "merged",
     "body": "Stops serving a stale shell after deploys.", "age": 60 * 24 * 5},
    {"title": "Add scale bar component", "branch": "feat/scale-bar", "arrival": True,
     "body": "A scale bar that follows the locale's units. Screenshots in the first comment."},
    {"title": "Fix double-click zoom", "branch": "fix/dblclick-zoom", "arrival": True, "checks": "pending",
     "body": "Double-click on the zoom buttons now zooms two levels."},
    {"title": "Print view for routes", "branch": "feat/print", "arrival": True,
     "body": "A print stylesheet and a turn list page."},
    {"title": "Search: cap query length", "branch": "fix/search-length", "arrival": True, "checks": "failure",
     "body": "Queries longer than 300 characters are trimmed before suggestions are computed."},
]

REPLIES = [
    "I can reproduce this on the latest main.", "Thanks for the report! Adding it to the triage board.",
    "Would a pull request for this be welcome?", "This looks like the same cause as the tile cache issue.",
    "Fixed in the linked pull request, please check the next release candidate.",
    "Could you share the browser version and a screenshot?", "+1, we see this at work too.",
    "Closing as done; reopen if it comes back.", "I had a look: the worker restarts and loses its queue.",
    "Tagging this for 2.5.", "Nice idea. Let's discuss the design here before anyone starts.",
    "Approved, thanks!", "Left two small comments inline.", "CI is green now.",
    "Can we add a test for the empty case?", "Works for me on Firefox 124.",
]
