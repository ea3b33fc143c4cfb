// The chat view's script. It owns no state: the extension sends the
// rendered chat ({type: 'render'}) and the toolbar state ({type: 'state'});
// clicks and the input go back as messages the extension acts on.
(function () {
  const vscode = acquireVsCodeApi();
  const chat = document.getElementById('chat');
  const input = document.getElementById('input');
  const send = document.getElementById('send');
  const cancel = document.getElementById('cancel');
  const mode = document.getElementById('mode');
  const state = document.getElementById('state');
  const model = document.getElementById('setModel');

  function submit() {
    const text = input.value.trim();
    if (!text) return;
    vscode.postMessage({ action: 'prompt', text });
    input.value = '';
  }
  send.addEventListener('click', submit);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  });
  cancel.addEventListener('click', () => vscode.postMessage({ action: 'cancel' }));
  mode.addEventListener('change', () => vscode.postMessage({ action: 'setMode', mode: mode.value }));
  for (const id of ['newSession', 'openSession', 'setModel']) {
    document.getElementById(id).addEventListener('click', () => vscode.postMessage({ action: id }));
  }
  chat.addEventListener('click', (e) => {
    const el = e.target.closest('[data-action]');
    if (!el) return;
    e.preventDefault();
    vscode.postMessage({ action: el.dataset.action, id: Number(el.dataset.id), option: el.dataset.option,
      tool: el.dataset.tool, index: Number(el.dataset.index) });
  });

  window.addEventListener('message', (e) => {
    const m = e.data;
    if (m.type === 'render') {
      const atBottom = chat.scrollTop + chat.clientHeight >= chat.scrollHeight - 30;
      chat.innerHTML = m.html;
      if (atBottom) chat.scrollTop = chat.scrollHeight;
    } else if (m.type === 'state') {
      state.textContent = m.text;
      cancel.disabled = !m.running;
      send.disabled = m.running;
      if (m.modes) {
        mode.innerHTML = '';
        for (const md of m.modes) {
          const o = document.createElement('option');
          o.value = md.id;
          o.textContent = md.name;
          o.title = md.description || '';
          mode.appendChild(o);
        }
      }
      if (m.mode) mode.value = m.mode;
      model.textContent = m.model || 'Model';
    } else if (m.type === 'focus') {
      input.focus();
      if (m.text) input.value = m.text;
    }
  });
  vscode.postMessage({ action: 'ready' });
})();
