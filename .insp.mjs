// usage: node .insp.mjs PID -> heap stats of that node process via the inspector
import WebSocket from 'ws';
const pid = Number(process.argv[2]); const port = Number(process.argv[3] ?? 9229);
process.kill(pid, 'SIGUSR1');
await new Promise((r) => setTimeout(r, 800));
const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
const ws = new WebSocket(list[0].webSocketDebuggerUrl);
await new Promise((r) => ws.once('open', r));
const expr = `(() => { const v8 = process.binding ? require('v8') : null; const m = process.memoryUsage(); const mb = (n) => Math.round(n/1048576); return JSON.stringify({ rss: mb(m.rss), heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external), ab: mb(m.arrayBuffers), spaces: v8.getHeapSpaceStatistics().filter(s => s.space_size > 1e6).map(s => [s.space_name, mb(s.space_size), mb(s.space_used_size)]) }); })()`;
ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: expr, includeCommandLineAPI: true } }));
ws.on('message', (d) => { const msg = JSON.parse(d); if (msg.id === 1) { console.log(msg.result?.result?.value ?? JSON.stringify(msg)); ws.close(); process.exit(0); } });
