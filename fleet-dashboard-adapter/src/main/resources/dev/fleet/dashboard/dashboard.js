// The fleet page: the verdict as it is now, fed by the dashboard's server-sent events.
// Every value that comes from the verdict (and so from registry rows and command lines) reaches the
// page through textContent only, never as markup: a row cannot inject HTML or script.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  // Blocked codes whose entries are listed one by one below, as `fleet watch` lists them.
  const LISTED = new Set(['missing_member', 'duplicate_member', 'unexpected_member', 'registration_unconfirmed',
    'malformed_registration', 'unregistered_process', 'orphaned_member']);
  const TIMELINE_LIMIT = 500;

  let shownDigest = null;
  let previousAnomalies = null;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function replace(parent, children, emptyText) {
    parent.replaceChildren(...children);
    if (children.length === 0 && emptyText) parent.append(el('li', 'empty', emptyText));
  }

  const name = (entry) => entry.namespace + '/' + entry.profile;
  const orNone = (value) => (value === null || value === undefined || value === '' ? '—' : value);

  // Every anomaly of a verdict as one line, the way `fleet watch` names them; what the timeline compares.
  function anomalyLines(v) {
    const lines = [];
    v.missing_members.forEach((m) => lines.push('missing member ' + name(m)));
    v.duplicate_members.forEach((m) => lines.push('duplicate member ' + name(m) + ': pids '
      + m.instances.map((i) => i.pid).join(', ')));
    const flagged = (title, list) => list.forEach((e) => lines.push(title + ' ' + name(e) + ' pid ' + e.pid + ': ' + e.reason));
    flagged('unexpected member', v.unexpected_members);
    flagged('stale registration', v.stale_registrations);
    flagged('unverified registration', v.unverified_registrations);
    v.malformed_registrations.forEach((r) => lines.push('malformed registration runtime_id ' + r.runtime_id + ': ' + r.reason));
    v.unregistered_processes.forEach((p) => lines.push('unregistered process pid ' + p.pid + ': ' + p.reason));
    v.orphaned_instances.forEach((o) => lines.push('orphaned instance ' + name(o) + ' pid ' + o.pid + ' (client pid '
      + o.parent_pid + ' gone)'));
    v.blocked_reasons.filter((r) => !LISTED.has(r.code)).forEach((r) => lines.push(r.code + ': ' + r.detail));
    return lines;
  }

  function renderGate(v) {
    const gate = $('gate');
    gate.dataset.state = v.mutation_gate_satisfied ? 'satisfied' : 'blocked';
    $('gate-title').textContent = v.mutation_gate_satisfied ? 'GATE SATISFIED' : 'GATE NOT SATISFIED';
    const first = v.blocked_reasons[0];
    $('gate-reason').textContent = first ? 'blocked by ' + first.code + ': ' + first.detail : 'no blocked reason';
    $('gate-counts').textContent = v.running_member_count + ' running of ' + v.expected_member_count + ' expected'
      + ' · inventory ' + (v.inventory_complete ? 'complete' : 'incomplete')
      + ' · single cohort ' + orNone(v.single_cohort) + ' · single revision ' + orNone(v.single_revision);
  }

  function field(list, label, value) {
    list.append(el('dt', null, label), el('dd', null, orNone(value)));
  }

  function renderMembers(v) {
    const cards = v.members.map((member) => {
      const card = el('article', 'card');
      card.dataset.state = member.state;
      card.dataset.profile = member.profile;
      card.append(el('span', 'state', member.state), el('div', 'role', member.role),
        el('div', 'names', member.namespace + ' · ' + member.profile));
      if (member.instances.length === 0) {
        card.append(el('div', 'empty', 'no instance'));
      }
      member.instances.forEach((instance) => {
        const details = el('dl', 'instance');
        field(details, 'pid', instance.pid);
        field(details, 'revision', instance.startup_head);
        field(details, 'cohort', instance.cohort_id);
        field(details, 'transport', instance.transport);
        field(details, 'since', instance.registered_at);
        card.append(details);
      });
      return card;
    });
    $('members').replaceChildren(...cards);
  }

  function anomalyItem(code, detail, action, blocking) {
    const item = el('li');
    item.dataset.blocking = String(blocking);
    item.dataset.code = code;
    item.append(el('span', 'code', code), document.createTextNode(' ' + detail));
    if (action) item.append(el('div', 'action', '→ ' + action));
    return item;
  }

  function renderAnomalies(v) {
    const items = v.blocked_reasons.map((r) => anomalyItem(r.code, r.detail, r.action, true));
    const flagged = (title, list) => list.forEach((e) => items.push(anomalyItem(title, name(e) + ' pid ' + e.pid
      + ': ' + e.reason + ' (cohort ' + orNone(e.cohort_id) + ', revision ' + orNone(e.startup_head)
      + ', client ' + orNone(e.client_provenance) + ')', null, false)));
    flagged('unexpected', v.unexpected_members);
    flagged('stale', v.stale_registrations);
    flagged('unverified', v.unverified_registrations);
    v.malformed_registrations.forEach((r) => items.push(anomalyItem('malformed', 'runtime_id ' + r.runtime_id + ': '
      + r.reason, null, false)));
    v.unregistered_processes.forEach((p) => items.push(anomalyItem('unregistered', 'pid ' + p.pid + ': ' + p.reason
      + ' — ' + p.command_line, null, false)));
    $('anomaly-count').textContent = '(' + items.length + ')';
    replace($('anomalies'), items, 'none');
  }

  function renderOrphansAndRemotes(v) {
    const orphans = v.orphaned_instances.map((o) => el('li', null, name(o) + ' pid ' + o.pid + ': client pid '
      + o.parent_pid + ' is gone (started ' + orNone(o.parent_started_at) + ')'));
    $('orphan-count').textContent = '(' + orphans.length + ')';
    replace($('orphans'), orphans, 'none');
    const remotes = v.remote_instances.map((r) => el('li', null, name(r) + ' pid ' + r.pid + ' on host ' + r.host_id
      + ' (cohort ' + orNone(r.cohort_id) + ', revision ' + orNone(r.startup_head) + ')'));
    $('remote-count').textContent = '(' + remotes.length + ')';
    replace($('remotes'), remotes, 'none');
  }

  function renderFooter(v) {
    const o = v.observation;
    $('digest').textContent = v.verdict_digest;
    $('observed').textContent = orNone(o.observed_at);
    $('observer').textContent = orNone(o.hostname) + (o.answered_by ? ' (pid ' + o.answered_by.pid + ')' : '');
    $('registry').textContent = orNone(o.registry_path) + ': ' + (v.registry.readable ? 'readable, '
      + v.registry.registration_count + ' rows' : 'unreadable (' + v.registry.reason + ')');
    $('listing').textContent = v.process_listing.available ? v.process_listing.server_process_count
      + ' server processes' : 'unavailable (' + v.process_listing.reason + ')';
  }

  function addToTimeline(v) {
    const now = anomalyLines(v);
    const item = el('li');
    item.dataset.digest = v.verdict_digest;
    item.append(el('span', 'when', (v.observation.observed_at || '').replace('T', ' ').replace('Z', ' UTC')),
      document.createTextNode(' ' + (v.mutation_gate_satisfied ? 'gate satisfied' : v.blocked_reason)
        + ' · ' + v.running_member_count + '/' + v.expected_member_count + ' running'));
    if (previousAnomalies === null) {
      item.append(document.createTextNode(' · page opened'));
    }
    const before = new Set(previousAnomalies || []);
    const after = new Set(now);
    const changes = el('ul', 'changes');
    now.filter((line) => !before.has(line)).forEach((line) => changes.append(el('li', 'appeared', '+ ' + line)));
    (previousAnomalies || []).filter((line) => !after.has(line)).forEach((line) => changes.append(el('li', 'left', '- ' + line)));
    if (changes.childElementCount > 0) item.append(changes);
    previousAnomalies = now;
    const timeline = $('timeline');
    timeline.prepend(item);
    while (timeline.childElementCount > TIMELINE_LIMIT) timeline.lastElementChild.remove();
  }

  function show(v) {
    if (v.verdict_digest === shownDigest) return; // the same verdict again (a reconnect): nothing changed
    shownDigest = v.verdict_digest;
    renderGate(v);
    renderMembers(v);
    renderAnomalies(v);
    renderOrphansAndRemotes(v);
    renderFooter(v);
    addToTimeline(v);
  }

  function connect() {
    const connection = $('connection');
    const events = new EventSource('/events');
    events.addEventListener('open', () => {
      connection.dataset.state = 'live';
      connection.textContent = 'live';
    });
    events.addEventListener('error', () => {
      // EventSource reconnects by itself; the page keeps the last verdict meanwhile.
      connection.dataset.state = 'lost';
      connection.textContent = 'reconnecting…';
    });
    events.addEventListener('verdict', (event) => show(JSON.parse(event.data)));
  }

  connect();
})();
