// What is granted to the agent, whether its server runs, and the protection layers on this host.
import { assertNever, type RootChoice, type ServerStatus } from '../../src/shared/messages.js';
import { visible } from '../../src/core/visible.js';
import { rightsText } from './form.js';
import { page, ui } from './state.js';

/** Each workspace folder and what the agent's server may do in it; why nothing, when nothing is. */
export function showGrants(choices: readonly RootChoice[], grantNote: string | null): void {
  const items = choices.map((choice) => {
    const item = document.createElement('li');
    item.className = choice.rights === 'none' ? 'layer layer-inactive' : 'layer layer-active';
    const name = document.createElement('strong');
    name.textContent = visible(`${choice.label}: ${rightsText(choice.rights)}`);
    const detail = document.createElement('span');
    detail.textContent = visible(choice.rights === 'none' && grantNote !== null ? `${choice.uri}. ${grantNote}` : choice.uri);
    item.append(name, detail);
    return item;
  });
  if (items.length === 0) {
    const none = document.createElement('li');
    none.className = 'layer layer-inactive';
    none.textContent = grantNote ?? 'No workspace folder is open: open a folder to grant it to the agent.';
    items.push(none);
  }
  ui.grants.replaceChildren(...items);
}

/** Whether the agent's server runs, and the layers as they stand with it: a layer guards nothing while no server runs. */
export function showServer(server: ServerStatus): void {
  ui.server.textContent = `The agent's server: ${serverText(server)}.`;
  ui.server.dataset['kind'] = server.kind;
  const idle = server.kind === 'stopped' || server.kind === 'none';
  ui.layers.replaceChildren(
    ...page.layers.map((layer) => {
      const item = document.createElement('li');
      item.className = !layer.active ? 'layer layer-inactive' : idle ? 'layer layer-idle' : 'layer layer-active';
      const name = document.createElement('strong');
      name.textContent = `${layer.name}: ${!layer.active ? 'not active' : idle ? 'ready (no server running)' : 'active'}`;
      const detail = document.createElement('span');
      detail.textContent = layer.detail;
      item.append(name, detail);
      return item;
    }),
  );
}

function serverText(server: ServerStatus): string {
  switch (server.kind) {
    case 'running':
      if (!server.current) return `running with earlier grants or settings (process ${server.pid}): restart it to apply the ones below`;
      return `running (process ${server.pid}${server.sandbox === null ? '' : `, in ${server.sandbox}`})`;
    case 'stopped':
      return "not running: the editor starts it at the agent's first call to its tools, or from MCP: List Servers";
    case 'none':
      return 'not offered to the agent, since nothing is granted';
    case 'unknown':
      return 'whether it runs is not known here (MCP: List Servers shows it)';
    default:
      return assertNever(server);
  }
}
