// SPDX-License-Identifier: GPL-2.0
/*
 * What a person sees of an exported trace, in a real browser: Debian's
 * Chromium, headless, driven by puppeteer-core (scripts/npm-deps.sh).
 *
 *   node view.mjs --out DIR --names a,b,c [--svg FILE] [--chrome FILE]
 *                 [--folded FILE] [--hover NAME] [--zoom NAME] [--search NAME]
 *                 [--callees NAME]
 *
 * Serves the files from 127.0.0.1, opens the SVG flame graph, and the
 * Chrome JSON and the folded stacks in speedscope (from its npm
 * package), and writes
 * DIR/results.txt, one "key value" line per observation, for
 * tests/cases/export/browser.sh to judge, the console and page errors in
 * DIR/errors-*.txt and screenshots DIR/*.png.  Exits 0 once every
 * observation is written, whatever they say (a page that stopped short
 * is one: svg.failed, speedscope.failed); 1 if the browser could not be
 * driven at all.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const npmDir = process.env.NPM_DIR || path.join(here, '../../cache/npm');
const require = createRequire(path.join(npmDir, 'node_modules/'));
const puppeteer = require('puppeteer-core');
const speedscopeDir = path.join(npmDir, 'node_modules/speedscope/dist/release');

const WAIT = 20000;		/* ms for any one thing the page must show */
const VIEW = { width: 1200, height: 700 };

function parseArgs(argv) {
	const a = { names: [] };
	for (let i = 0; i < argv.length; i += 2) {
		const key = argv[i].replace(/^--/, '');
		a[key] = key === 'names' ? argv[i + 1].split(',') : argv[i + 1];
	}
	if (!a.out || !a.names.length || !(a.svg || a.chrome || a.folded))
		throw new Error('usage: view.mjs --out DIR --names a,b [--svg F] [--chrome F] [--folded F] [--hover N] [--zoom N] [--search N] [--callees N]');
	return a;
}

/* The results file: one line per observation, written as it is made, so
 * that a run cut short still says how far it got. */
function recorder(dir) {
	const file = path.join(dir, 'results.txt');
	fs.writeFileSync(file, '');
	return (key, value) => {
		const v = Array.isArray(value) ? value.join(' ') : String(value);
		fs.appendFileSync(file, `${key} ${v.replace(/\s+/g, ' ').trim()}\n`);
	};
}

const TYPES = { '.svg': 'image/svg+xml', '.html': 'text/html', '.js': 'text/javascript',
	'.css': 'text/css', '.json': 'application/json', '.png': 'image/png',
	'.wasm': 'application/wasm', '.woff2': 'font/woff2', '.ico': 'image/x-icon' };

/* A static server on 127.0.0.1: /speedscope/... from the npm package,
 * /files/NAME from the exported files; nothing else (a 404 is an error
 * the test counts). */
async function serve(files) {
	const server = http.createServer((req, res) => {
		const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
		let file = null;
		if (p.startsWith('/speedscope/')) {
			const rel = path.normalize(p.slice('/speedscope/'.length));
			if (!rel.startsWith('..'))
				file = path.join(speedscopeDir, rel || 'index.html');
		} else if (p.startsWith('/files/')) {
			file = files[p.slice('/files/'.length)];
		} else if (p === '/favicon.ico') {
			/* What the browser asks of every site: none, not an error. */
			res.writeHead(204);
			res.end();
			return;
		}
		fs.readFile(file || '/nonexistent', (err, data) => {
			if (err) {
				res.writeHead(404);
				res.end();
				return;
			}
			res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
			res.end(data);
		});
	});
	await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
	return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/* Chromium as root runs only without its sandbox; the pages are ours.
 * speedscope draws with WebGL: headless and without a GPU that is
 * SwiftShader, which Chromium now uses only when asked to (without the
 * flag it warns on the console, which the tests count as an error;
 * --use-gl=swiftshader gives no WebGL at all). */
async function launch() {
	return puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
			'--disable-dev-shm-usage', '--no-first-run', '--hide-scrollbars'],
		defaultViewport: VIEW,
	});
}

/* A page whose console errors and warnings, uncaught exceptions, failed
 * requests and dialogs are all kept: any of them fails the test. */
async function openPage(browser) {
	const page = await browser.newPage();
	const errors = [];
	page.on('console', (m) => {
		if (m.type() === 'error' || m.type() === 'warn')
			errors.push(`console.${m.type()}: ${m.text()}`);
	});
	page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
	page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
	page.on('response', (r) => {
		if (r.status() >= 400)
			errors.push(`http ${r.status()}: ${r.url()}`);
	});
	/* speedscope says a file it cannot read in an alert(). */
	page.on('dialog', (d) => {
		errors.push(`dialog: ${d.message()}`);
		d.dismiss();
	});
	page.setDefaultTimeout(WAIT);
	return { page, errors };
}

/* Two animation frames: what was drawn is on the screen. */
function painted(page) {
	return page.evaluate(() => new Promise((ok) =>
		requestAnimationFrame(() => requestAnimationFrame(ok))));
}

/* A screenshot of the drawing only: an SVG document is as tall as its
 * graph, and the window below it is empty. */
async function shootSvg(page, dir, name) {
	const h = await page.evaluate(() => document.documentElement.getBoundingClientRect().height);
	const height = Math.max(1, Math.min(VIEW.height, Math.ceil(h)));
	await page.screenshot({ path: path.join(dir, name), clip: { x: 0, y: 0, width: VIEW.width, height } });
}

/* One page, one viewer: what stopped it short (a wait that timed out)
 * is an observation like the others, and the page's errors, which
 * likely say why, are written whatever happened. */
async function view(browser, what, fn, base, a, put) {
	const { page, errors } = await openPage(browser);
	try {
		await fn(page, base, a, put);
	} catch (e) {
		put(`${what}.failed`, e.message);
		await page.screenshot({ path: path.join(a.out, `${what}-failed.png`) }).catch(() => {});
		put(`${what}.failed_page`, await page.evaluate(() =>
			(document.body ?? document.documentElement).innerText ?? '').catch(() => '?'));
	}
	fs.writeFileSync(path.join(a.out, `errors-${what}.txt`), errors.map((e) => e + '\n').join(''));
	put(`${what}.errors`, errors.length);
	await page.close();
}

/*
 * The flame graph.  A frame is a <g> holding a <rect> (and its label);
 * its function's name is the <g>'s data-name, or else its <title>'s
 * text up to " (", as flamegraph.pl writes it.  These helpers run in the
 * page, put there before its own script (flameHelpers).
 */
function flameHelpers() {
	const frameName = (g) => g.getAttribute('data-name') ??
		(g.querySelector(':scope > title')?.textContent ?? '').replace(/\s*\(.*$/s, '').trim();
	const frames = () => [...document.querySelectorAll('g')]
		.filter((g) => g.querySelector(':scope > rect') && frameName(g))
		.map((g) => {
			const rect = g.querySelector(':scope > rect');
			const b = rect.getBoundingClientRect();
			return { name: frameName(g), x: b.x, y: b.y, width: b.width, height: b.height,
				fill: getComputedStyle(rect).fill };
		});
	/* Text a person can see that says something of a frame: not a
	 * frame's own label, not the browser's tooltip (a <title>). */
	const visibleText = (needle) => [...document.querySelectorAll('text, tspan, div, span, p')]
		.filter((e) => !e.closest('g > rect ~ *') && !e.closest('title'))
		.filter((e) => {
			const s = getComputedStyle(e);
			return s.display !== 'none' && s.visibility !== 'hidden' && e.getBoundingClientRect().width > 0;
		})
		.map((e) => e.textContent).find((t) => t.includes(needle) && /call/i.test(t));
	/* The root frame is the widest, the first of the widest. */
	const rootY = () => frames().reduce((m, f) => (f.width > m.width ? f : m), { width: 0, y: -1 }).y;
	window.flameTest = { frames, visibleText, rootY };
}

async function viewSvg(page, base, a, put) {
	await page.evaluateOnNewDocument(flameHelpers);
	await page.goto(`${base}/files/flame.svg`, { waitUntil: 'load' });
	await painted(page);
	const frames = await page.evaluate(() => flameTest.frames());
	put('svg.frames', frames.length);
	put('svg.names', a.names.filter((n) => frames.some((f) => f.name === n)));
	await shootSvg(page, a.out, 'flame.png');

	if (a.hover)
		await svgHover(page, a, put);
	if (a.zoom)
		await svgZoom(page, a, put);
	if (a.search)
		await svgSearch(page, a, put);
	await svgFlip(page, a, put);
}

/* The widest frame of that name, where the mouse can reach it. */
async function frameOf(page, name) {
	const frames = await page.evaluate((n) => flameTest.frames().filter((f) => f.name === n && f.width > 2), name);
	return frames.sort((x, y) => y.width - x.width)[0];
}

/* Hovering a frame shows its name and how often it was called,
 * somewhere on the page. */
async function svgHover(page, a, put) {
	const f = await frameOf(page, a.hover);
	if (!f) {
		put('svg.hover', 'no-frame');
		return;
	}
	/* Said before the mouse came, it would not be the hover's doing. */
	if (await page.evaluate((n) => flameTest.visibleText(n), a.hover)) {
		put('svg.hover', 'shown-before-hover');
		return;
	}
	await page.mouse.move(f.x + f.width / 2, f.y + f.height / 2);
	const shown = await page.waitForFunction((n) => flameTest.visibleText(n), {}, a.hover)
		.then((h) => h.jsonValue(), () => '');
	put('svg.hover', shown ? 'shown' : 'none');
	put('svg.tooltip', shown);
	await shootSvg(page, a.out, 'flame-hover.png');
}

/* Clicking a frame zooms into it: it becomes as wide as the whole graph
 * (the root frame, the widest). */
async function svgZoom(page, a, put) {
	const before = await frameOf(page, a.zoom);
	if (!before) {
		put('svg.zoom', 'no-frame');
		return;
	}
	const full = (n) => {
		const frames = flameTest.frames();
		const widest = Math.max(...frames.map((f) => f.width));
		return frames.some((f) => f.name === n && f.width >= widest - 1);
	};
	if (await page.evaluate(full, a.zoom)) {
		put('svg.zoom', 'already-full-width');
		return;
	}
	await page.mouse.click(before.x + before.width / 2, before.y + before.height / 2);
	const zoomed = await page.waitForFunction(full, {}, a.zoom).then(() => true, () => false);
	put('svg.zoom', zoomed ? 'full-width' : 'unchanged');
	await painted(page);
	await shootSvg(page, a.out, 'flame-zoom.png');
}

/* Search highlights the frames that match, and only those: typed into
 * the page's search box, as a person would, in the graph as loaded.
 * What is seen: the names of the frames whose fill changed, and how many
 * frames of the name searched for kept theirs. */
async function svgSearch(page, a, put) {
	await page.reload({ waitUntil: 'load' });
	const box = await page.$('input');
	if (!box) {
		put('svg.search', 'no-search-box');
		return;
	}
	const before = await page.evaluate(() => flameTest.frames().map((f) => f.fill));
	await box.click();
	await page.keyboard.type(a.search);
	/* Each key searched for what was typed so far ('s' matches much):
	 * the whole term typed, then some highlight, then what is shown. */
	await page.waitForFunction((term) => document.querySelector('input').value === term, {}, a.search);
	await page.waitForFunction((was) => flameTest.frames().some((f, i) => f.fill !== was[i]), {}, before)
		.catch(() => {});
	await painted(page);
	const changed = await page.evaluate((was) => [...new Set(flameTest.frames()
		.filter((f, i) => f.fill !== was[i]).map((f) => f.name))].sort(), before);
	put('svg.search', changed.length ? changed : 'nothing');
	put('svg.search_missed', await page.evaluate((n, was) => flameTest.frames()
		.filter((f, i) => f.name === n && f.fill === was[i]).length, a.search, before));
	put('svg.search_frames', await page.evaluate((n) =>
		flameTest.frames().filter((f) => f.name === n).length, a.search));
	await painted(page);
	await shootSvg(page, a.out, 'flame-search.png');
}

/* The icicle/flame toggle turns the graph upside down: the root frame
 * moves from the bottom to the top. */
async function svgFlip(page, a, put) {
	const [button] = await page.$$('xpath/.//*[local-name()="text"][normalize-space()="Icicle" or normalize-space()="Flame"]');
	if (!button) {
		put('svg.flip', 'no-button');
		return;
	}
	const y0 = await page.evaluate(() => flameTest.rootY());
	await button.click();
	const moved = await page.waitForFunction((y) => flameTest.rootY() < y, {}, y0)
		.then(() => true, () => false);
	put('svg.flip', moved ? 'flipped' : 'unchanged');
	await painted(page);
	await shootSvg(page, a.out, 'flame-icicle.png');
}

/* In the page: speedscope's toolbar names the profile shown, "prog (pid
 * 1), prog (tid 1)", with "(1/2)" when the file holds two threads. */
function profileTitle() {
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let t = walk.nextNode(); t; t = walk.nextNode())
		if (/\((pid|tid) \d+\)/.test(t.textContent) && !t.parentElement.closest('table'))
			return t.parentElement;
	return null;
}

/* Its list of profiles, one per thread, opened by a click on that name:
 * rows titled with each thread's name.  Choosing one hides it. */
async function chooseProfile(page, index) {
	const title = await page.waitForFunction(profileTitle);
	await title.click();
	await page.waitForSelector('tr[title]', { visible: true });
	const rows = await page.$$('tr[title]');
	const names = await Promise.all(rows.map((r) => r.evaluate((e) => e.title)));
	if (index !== undefined) {
		await rows[index].click();
		await page.waitForFunction((want) => {
			const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
			for (let t = walk.nextNode(); t; t = walk.nextNode())
				if (t.textContent.trim() === want && !t.parentElement.closest('table'))
					return [...document.querySelectorAll('tr[title]')].every((r) => !r.offsetParent);
			return false;
		}, {}, names[index]);
	}
	return names;
}

/* The sandwich view's table: total, self and name of every function of
 * the profile shown. */
async function sandwichRows(page) {
	await page.waitForSelector('table tr td');
	return page.$$eval('table tr', (trs) => trs.map((tr) =>
		[...tr.querySelectorAll('td')].map((td) => td.innerText.trim())).filter((r) => r.length === 3));
}

/* What speedscope shows under a function: in the sandwich view, with
 * its row chosen, the callees' flame graph (the lowest canvas) has it on
 * top and what it called below.  The graph is WebGL; what a person reads
 * of it is the tooltip of the frame under the mouse, "6.42ms (>99%)
 * spin": the mouse goes down the middle of the graph, and the names of
 * the frames it meets are the result, top first. */
async function speedscopeCallees(page, name, out, put) {
	const rows = await page.$$('table tr');
	const cells = await Promise.all(rows.map((r) => r.evaluate((e) => e.cells[2]?.innerText.trim())));
	const row = rows[cells.indexOf(name)];
	if (!row) {
		put('speedscope.callees', 'no-row');
		return;
	}
	await row.click();
	await painted(page);
	const graph = (await page.$$eval('canvas', (cs) => cs.map((c) => {
		const b = c.getBoundingClientRect();
		return { x: b.x, y: b.y, width: b.width, height: b.height };
	}))).sort((p, q) => q.y - p.y)[0];
	const text = () => document.body.innerText.split('\n');
	const before = new Set(await page.evaluate(text));
	const seen = [];
	for (let y = 2; y < Math.min(graph.height, 120); y += 4) {
		await page.mouse.move(graph.x + graph.width / 2, graph.y + y);
		await painted(page);
		for (const line of await page.evaluate(text)) {
			const m = !before.has(line) && line.match(/^\S+ \([^)]*\) (.+)$/);
			if (m && seen[seen.length - 1] !== m[1])
				seen.push(m[1]);
		}
	}
	put('speedscope.callees', seen.length ? seen : 'nothing');
	await page.screenshot({ path: path.join(out, 'speedscope-callees.png') });
}

async function viewSpeedscope(page, base, a, put) {
	const profile = encodeURIComponent(`${base}/files/trace.json`);
	await page.goto(`${base}/speedscope/index.html#profileURL=${profile}`, { waitUntil: 'networkidle0' });
	const title = await page.waitForFunction(profileTitle);
	put('speedscope.title', await title.evaluate((e) => e.innerText));
	await painted(page);
	await page.screenshot({ path: path.join(a.out, 'speedscope.png') });

	const profiles = await chooseProfile(page, 0);
	put('speedscope.profiles', profiles.length);
	put('speedscope.profile_names', profiles.join(' | '));

	/* The flame chart is WebGL; the sandwich view is a table, for the
	 * thread chosen: every thread's in turn. */
	const [tab] = await page.$$('xpath/.//div[text()="Sandwich"]');
	await tab.click();
	const seen = new Map();
	for (let i = 0; i < profiles.length; i++) {
		if (i > 0)
			await chooseProfile(page, i);
		await painted(page);
		for (const r of await sandwichRows(page))
			if (!seen.has(r[2]))
				seen.set(r[2], r);
		if (i === 0) {
			await page.screenshot({ path: path.join(a.out, 'speedscope-sandwich.png') });
			if (a.callees)
				await speedscopeCallees(page, a.callees, a.out, put);
		}
	}
	put('speedscope.names', a.names.filter((n) => seen.has(n)));
	const main = seen.get('main');
	put('speedscope.main_total', main ? main[0].replace(/^.*\((.*)\)$/, '$1') : 'none');
}

/* Folded stacks in speedscope: one profile, named after the file; the
 * sandwich table lists its functions. */
async function viewFolded(page, base, a, put) {
	const profile = encodeURIComponent(`${base}/files/stacks.folded`);
	await page.goto(`${base}/speedscope/index.html#profileURL=${profile}`, { waitUntil: 'networkidle0' });
	await page.waitForFunction(() => document.title.startsWith('stacks.folded'));
	const [tab] = await page.$$('xpath/.//div[text()="Sandwich"]');
	await tab.click();
	const rows = await sandwichRows(page);
	await painted(page);
	put('folded.names', a.names.filter((n) => rows.some((r) => r[2] === n)));
	await page.screenshot({ path: path.join(a.out, 'speedscope-folded.png') });
}

async function main() {
	const a = parseArgs(process.argv.slice(2));
	fs.mkdirSync(a.out, { recursive: true });
	const put = recorder(a.out);
	const files = {};
	if (a.svg)
		files['flame.svg'] = path.resolve(a.svg);
	if (a.chrome)
		files['trace.json'] = path.resolve(a.chrome);
	if (a.folded)
		files['stacks.folded'] = path.resolve(a.folded);
	const { server, base } = await serve(files);
	const browser = await launch();
	try {
		put('browser', await browser.version());
		if (a.svg)
			await view(browser, 'svg', viewSvg, base, a, put);
		if (a.chrome)
			await view(browser, 'speedscope', viewSpeedscope, base, a, put);
		if (a.folded)
			await view(browser, 'folded', viewFolded, base, a, put);
		put('done', 'yes');
	} finally {
		await browser.close();
		server.close();
	}
}

/* Nothing may hang the test: the whole run has two minutes. */
setTimeout(() => {
	console.error('view.mjs: timed out');
	process.exit(1);
}, 120000).unref();
main().catch((e) => {
	console.error(`view.mjs: ${e.stack || e}`);
	process.exit(1);
});
