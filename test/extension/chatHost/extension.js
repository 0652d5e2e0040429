// Test-only. VS Code's chat calls a participant only once some language model is chosen, so this
// registers a stub one (never asked anything) beside a participant that calls the agent's
// explain_path itself, in the chat request, where the chat shows the tool's MCP Apps view.
const vscode = require('vscode');

const STUB = { vendor: 'bi-tests-stub', id: 'stub' };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function explainPathTool() {
  return vscode.lm.tools.find((tool) => tool.name.startsWith('mcp_') && tool.name.endsWith('_explain_path'));
}

/** The agent's server started, and its explain_path listed (Boundary Inspector provides the server once active). */
async function ready() {
  const inspector = vscode.extensions.getExtension('boundary-inspector.boundary-inspector');
  if (inspector === undefined) throw new Error('Boundary Inspector is not loaded');
  await inspector.activate();
  const deadline = Date.now() + 90_000;
  while (explainPathTool() === undefined) {
    if (Date.now() > deadline) throw new Error(`explain_path never appeared; tools: ${vscode.lm.tools.map((tool) => tool.name).join(', ')}`);
    await Promise.race([vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true }).catch(() => undefined), sleep(15_000)]);
    if (explainPathTool() === undefined) await sleep(1000);
  }
  return explainPathTool();
}

async function ask(query) {
  await vscode.commands.executeCommand('workbench.action.chat.newChat').catch(() => undefined);
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, modelSelector: STUB });
}

exports.activate = (context) => {
  const tool = ready();
  tool.catch(() => undefined);
  context.subscriptions.push(
    vscode.chat.createChatParticipant('boundary-inspector-tests.trace', async (request, _chat, stream, token) => {
      const path = request.prompt.trim();
      const explain = await tool;
      const workspaceUri = vscode.workspace.workspaceFolders[0].uri.toString();
      const result = await vscode.lm.invokeTool(explain.name, { toolInvocationToken: request.toolInvocationToken, input: { workspaceUri, path } }, token);
      stream.markdown(`explain_path answered for ${path} (${result.content.length} parts).`);
      return {};
    }),
    vscode.lm.registerLanguageModelChatProvider(STUB.vendor, {
      provideLanguageModelChatInformation: () => [
        { id: STUB.id, name: 'Stub (no model)', family: 'stub', version: '1', maxInputTokens: 100_000, maxOutputTokens: 1000, isUserSelectable: true, capabilities: { toolCalling: true } },
      ],
      async provideLanguageModelChatResponse(_model, _messages, _options, progress) {
        progress.report(new vscode.LanguageModelTextPart('This stub answers nothing.'));
      },
      provideTokenCount: async () => 1,
    }),
    vscode.commands.registerCommand('boundaryInspectorTests.traceRefused', async () => {
      await tool;
      await ask('@trace ../notes-evil/secret.md');
    }),
    vscode.commands.registerCommand('boundaryInspectorTests.traceMisspelt', async () => {
      await tool;
      await ask('@trace readme.md');
    }),
  );
};

exports.deactivate = () => {};
