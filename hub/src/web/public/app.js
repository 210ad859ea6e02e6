// A read-only view of the guns: connects as a viewer over MQTT/WebSocket and lists gun statuses.
(async () => {
  const conn = document.getElementById("conn");
  const body = document.getElementById("guns");
  const guns = new Map();
  let facts;
  try {
    facts = await (await fetch("/api/hub")).json();
  } catch {
    conn.textContent = "cannot reach the hub";
    return;
  }
  if (!facts.ws || !window.mqtt) {
    conn.textContent = `table ${facts.table}: live view needs the embedded broker`;
    return;
  }
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${facts.ws}`;
  const client = window.mqtt.connect(url, { clientId: `view${Math.random().toString(16).slice(2, 10)}` });
  client.on("connect", () => {
    conn.textContent = `table ${facts.table}: live`;
    client.subscribe(`${facts.topicRoot}/gun/+/status`);
  });
  client.on("close", () => {
    conn.textContent = "disconnected; retrying…";
  });
  client.on("message", (topic, payload) => {
    const id = topic.split("/")[4];
    if (payload.length === 0) guns.delete(id);
    else {
      try {
        guns.set(id, JSON.parse(payload.toString()));
      } catch {
        return;
      }
    }
    render();
  });
  function cell(text, cls) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    return td;
  }
  function render() {
    body.replaceChildren();
    if (guns.size === 0) {
      const tr = document.createElement("tr");
      tr.append(cell("no guns yet"));
      body.append(tr);
      return;
    }
    for (const [id, s] of [...guns].sort()) {
      const tr = document.createElement("tr");
      const info = s.info || {};
      tr.append(
        cell(id),
        cell(s.paired ? "yes" : "pairing request"),
        cell(s.seat ?? "–"),
        cell(s.on ? "online" : `offline (${s.why})`, s.on ? "on" : "off"),
        cell(info.bat !== undefined ? `${Math.round(info.bat)}%` : "–"),
        cell(info.fw ?? "–"),
        cell(info.mem ?? "–"),
        cell((s.warn || []).join("; "), "warn"),
      );
      body.append(tr);
    }
  }
})();
