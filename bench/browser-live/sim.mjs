// Starts the simulator binary and asks it for a live-view URL of the Demo account's cloud
// computer, as any client of the service would (crates/sim/README.md, "Live view").
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The Demo's computer the app's bench watches too (tests/e2e/live.rs). */
export const MACHINE_NAME = 'Design laptop';

/**
 * Spawns `bin` on a free loopback port and resolves once it printed its one ready line.
 * Its logs (stderr) are dropped: they may name live URLs, whose tokens are never printed.
 */
export async function startSim(bin) {
  const child = spawn(bin, ['--addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const ready = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve(JSON.parse(line)));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the simulator exited (code ${code}) before it was ready`)));
  });
  const ada = ready.accounts.find((a) => a.name === 'ada');
  return { child, baseUrl: ready.baseUrl, apiKey: ada.apiKey, stop: () => child.kill('SIGTERM') };
}

async function api(sim, method, path, payload) {
  const res = await fetch(sim.baseUrl + path, {
    method,
    headers: { Authorization: `Bearer ${sim.apiKey}`, 'Content-Type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${body}`);
  return body ? JSON.parse(body) : {};
}

/** A fresh websocketUrl for the Demo's cloud computer, waking it first if it sleeps. */
export async function liveUrl(sim) {
  const find = async () =>
    (await api(sim, 'GET', '/v1/agents/machines')).machines.find((m) => m.name === MACHINE_NAME && m.kind === 'cloud');
  let machine = await find();
  if (!machine) throw new Error(`the simulator has no cloud computer named "${MACHINE_NAME}"`);
  if (!machine.online) {
    // The service wakes a computer at POST /v1/agents/wake with its id in the body.
    await api(sim, 'POST', '/v1/agents/wake', { machineId: machine.machineId });
    const deadline = Date.now() + 120_000; // a wake takes 30 s at time scale 1
    while (!machine.online) {
      if (Date.now() > deadline) throw new Error(`"${MACHINE_NAME}" did not wake within 2 minutes`);
      await new Promise((r) => setTimeout(r, 500));
      machine = await find();
    }
  }
  return (await api(sim, 'POST', `/v1/agents/machines/${machine.machineId}/live`)).websocketUrl;
}
