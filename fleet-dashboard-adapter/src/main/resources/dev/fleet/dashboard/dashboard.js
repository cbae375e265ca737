// The fleet page: the verdict as it is now, fed by the dashboard's server-sent events.
// Every value that comes from the verdict (and so from registry rows and command lines) reaches the
// page as text nodes only, never as markup: a row cannot inject HTML or script. Every text is first
// made printable as the CLI's text output is, and each value from outside sits in a <bdi> of its
// own, so a row cannot reverse or hide the page's own words around it.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  // Blocked codes whose entries are listed one by one below, as `fleet watch` lists them.
  const LISTED = new Set(['missing_member', 'duplicate_member', 'unexpected_member', 'registration_unconfirmed',
    'malformed_registration', 'unregistered_process', 'orphaned_member']);
  const TIMELINE_LIMIT = 500;
  // What the text output writes as \xNN or \uNNNN (Printable): C0, DEL and C1 controls, the
  // bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line and
  // paragraph separators (U+2028, U+2029). Shown, an override is seen instead of obeyed.
  const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

  let shownDigest = null;
  let previousAnomalies = null;

  const printable = (text) => String(text).replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? '\\x' + code.toString(16).padStart(2, '0') : '\\u' + code.toString(16).padStart(4, '0');
  });

  // A value from outside the page (a row, a command line, a path): shown isolated, as "—" when absent.
  const outside = (value) => ({ outside: value === null || value === undefined || value === '' ? '—' : value });

  // Nodes for the parts of a text: strings and numbers as text, outside values each in a <bdi>, nodes as they are.
  function nodes(parts) {
    return parts.map((part) => {
      if (part instanceof Node) return part;
      if (part !== null && typeof part === 'object') return el('bdi', null, String(part.outside));
      return document.createTextNode(printable(part));
    });
  }

  function el(tag, className, ...parts) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    node.append(...nodes(parts));
    return node;
  }

  const fill = (node, ...parts) => node.replaceChildren(...nodes(parts));

  function replace(parent, children, emptyText) {
    parent.replaceChildren(...children);
    if (children.length === 0 && emptyText) parent.append(el('li', 'empty', emptyText));
  }

  const name = (entry) => outside(entry.namespace + '/' + entry.profile);
  // The parts as one string, for comparing anomalies between verdicts.
  const plain = (parts) => parts.map((part) => (part !== null && typeof part === 'object' ? part.outside : part)).join('');

  // Every anomaly of a verdict as the parts of one line, the way `fleet watch` names them; what the timeline compares.
  function anomalyLines(v) {
    const lines = [];
    v.missing_members.forEach((m) => lines.push(['missing member ', name(m)]));
    v.duplicate_members.forEach((m) => lines.push(['duplicate member ', name(m), ': pids '
      + m.instances.map((i) => i.pid).join(', ')]));
    const flagged = (title, list) => list.forEach((e) => lines.push([title + ' ', name(e), ' pid ' + e.pid + ': ' + e.reason]));
    flagged('unexpected member', v.unexpected_members);
    flagged('stale registration', v.stale_registrations);
    flagged('unverified registration', v.unverified_registrations);
    v.malformed_registrations.forEach((r) => lines.push(['malformed registration runtime_id ', outside(r.runtime_id),
      ': ' + r.reason]));
    v.unregistered_processes.forEach((p) => lines.push(['unregistered process pid ' + p.pid + ': ' + p.reason]));
    v.orphaned_instances.forEach((o) => lines.push(['orphaned instance ', name(o), ' pid ' + o.pid + ' (client pid '
      + o.parent_pid + ' gone)']));
    // A detail names rows' values among its own words: printable, but not isolated piece by piece.
    v.blocked_reasons.filter((r) => !LISTED.has(r.code)).forEach((r) => lines.push([r.code + ': ' + r.detail]));
    return lines;
  }

  function renderGate(v) {
    const gate = $('gate');
    gate.dataset.state = v.mutation_gate_satisfied ? 'satisfied' : 'blocked';
    fill($('gate-title'), v.mutation_gate_satisfied ? 'GATE SATISFIED' : 'GATE NOT SATISFIED');
    showTitle();
    const first = v.blocked_reasons[0];
    fill($('gate-reason'), first ? 'blocked by ' + first.code + ': ' + first.detail : 'no blocked reason');
    fill($('gate-counts'), v.running_member_count + ' running of ' + v.expected_member_count + ' expected'
      + ' · inventory ' + (v.inventory_complete ? 'complete' : 'incomplete') + ' · single cohort ',
    outside(v.single_cohort), ' · single revision ', outside(v.single_revision));
  }

  // A value in one line whatever its length: cut with an ellipsis by the style, whole in its title.
  function field(list, label, value, shown, title) {
    const dd = el('dd', null, outside(shown === undefined ? value : shown));
    dd.dataset.field = label;
    dd.title = printable(title === undefined ? (value === null || value === undefined ? '' : value) : title);
    list.append(el('dt', null, label), dd);
    return dd;
  }

  // A git revision as `git log --oneline` shows one, cut to 12 characters; any other value as it is.
  const shortRevision = (head) => (/^[0-9a-f]{40,64}$/.test(head || '') ? head.slice(0, 12) : head);

  const two = (n) => String(n).padStart(2, '0');
  const localDate = (d) => d.getFullYear() + '-' + two(d.getMonth() + 1) + '-' + two(d.getDate());
  const localClock = (d) => two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds());
  const instant = (iso) => {
    const d = typeof iso === 'string' ? new Date(iso) : null;
    return d && !Number.isNaN(d.getTime()) ? d : null;
  };
  // An instant of the verdict (UTC) in this browser's time zone; a text that is no instant, as it is.
  const localTime = (iso) => {
    const d = instant(iso);
    return d ? localDate(d) + ' ' + localClock(d) : iso;
  };
  // Shorter, for a card: the time alone on the day of `reference` (the observation), else the date.
  const localShort = (iso, reference) => {
    const d = instant(iso);
    if (!d) return iso;
    const day = instant(reference);
    return day && localDate(day) === localDate(d) ? localClock(d) : localDate(d);
  };
  const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
  const instantTitle = (iso) => (instant(iso) ? localTime(iso) + ' ' + zone() + ' (' + iso + ')' : iso);

  // Each cohort of the verdict gets a letter and a colour, A for the first in sort order, so that two
  // clients' instances differ at a glance; an instance of no known cohort gets "?".
  function cohortLabels(v) {
    const ids = new Set();
    v.members.forEach((m) => m.instances.forEach((i) => {
      if (i.cohort_id !== null && i.cohort_id !== undefined) ids.add(i.cohort_id);
    }));
    const labels = new Map();
    [...ids].sort().forEach((id, n) => labels.set(id, {
      letter: String.fromCharCode(65 + (n % 26)) + (n >= 26 ? String(Math.floor(n / 26) + 1) : ''),
      hue: String(n % 8),
    }));
    return labels;
  }

  // A cohort's letter in its colour; "?" for an instance of no known cohort.
  function badge(label, cohort) {
    const node = el('span', 'cohort', label ? label.letter : '?');
    node.dataset.hue = label ? label.hue : 'none';
    node.title = 'cohort ' + printable(cohort ?? 'unknown');
    return node;
  }

  // The roster's order of members (GET /roster), in which the cards are shown; the verdict sorts by namespace.
  let rosterOrder = new Map();
  const key = (m) => m.namespace + '\u0000' + m.profile;
  const rank = (m) => (rosterOrder.has(key(m)) ? rosterOrder.get(key(m)) : rosterOrder.size);

  function renderMembers(v) {
    const labels = cohortLabels(v);
    const observed = v.observation.observed_at;
    const cards = [...v.members].sort((a, b) => rank(a) - rank(b)).map((member) => { // a stable sort
      const card = el('article', 'card');
      card.dataset.state = member.state;
      card.dataset.profile = member.profile;
      card.append(el('span', 'state', member.state), el('div', 'role', outside(member.role)),
        el('div', 'names', outside(member.namespace), ' · ', outside(member.profile)));
      if (member.instances.length === 0) {
        card.append(el('div', 'empty', 'no instance'));
      }
      member.instances.forEach((instance) => {
        const details = el('dl', 'instance');
        const label = labels.get(instance.cohort_id);
        details.dataset.hue = label ? label.hue : 'none';
        field(details, 'pid', instance.pid);
        // The server the member wraps, under its pid (the CLI's table shows it beside it); its command in the title.
        if (instance.server_pid !== null && instance.server_pid !== undefined) {
          field(details, 'wraps', instance.server_pid, undefined, instance.server_command || '');
        }
        field(details, 'cohort', instance.cohort_id).prepend(badge(label, instance.cohort_id), ' ');
        field(details, 'revision', instance.startup_head, shortRevision(instance.startup_head));
        field(details, 'transport', instance.transport);
        field(details, 'since', instance.registered_at, localShort(instance.registered_at, observed),
          instantTitle(instance.registered_at));
        card.append(details);
      });
      return card;
    });
    $('members').replaceChildren(...cards);
    // The cohorts' letters, each with its whole id: a card may have room for only the letter.
    const legend = [...labels].flatMap(([id, label]) => [' ', badge(label, id), ' ', outside(id)]);
    fill($('cohort-legend'), ...(legend.length ? ['cohorts', ...legend] : []));
  }

  function anomalyItem(code, detail, action, blocking) {
    const item = el('li', null, el('span', 'code', code), ' ', ...detail);
    item.dataset.blocking = String(blocking);
    item.dataset.code = code;
    if (action) item.append(el('div', 'action', '→ ' + action));
    return item;
  }

  function renderAnomalies(v) {
    const items = v.blocked_reasons.map((r) => anomalyItem(r.code, [r.detail], r.action, true));
    const flagged = (title, list) => list.forEach((e) => items.push(anomalyItem(title, [name(e), ' pid ' + e.pid
      + ': ' + e.reason + ' (cohort ', outside(e.cohort_id), ', revision ', outside(e.startup_head), ', client ',
    outside(e.client_provenance), ')'], null, false)));
    flagged('unexpected', v.unexpected_members);
    flagged('stale', v.stale_registrations);
    flagged('unverified', v.unverified_registrations);
    v.malformed_registrations.forEach((r) => items.push(anomalyItem('malformed', ['runtime_id ', outside(r.runtime_id),
      ': ' + r.reason], null, false)));
    v.unregistered_processes.forEach((p) => items.push(anomalyItem('unregistered', ['pid ' + p.pid + ': ' + p.reason
      + ' — ', outside(p.command_line)], null, false)));
    fill($('anomaly-count'), '(' + items.length + ')');
    replace($('anomalies'), items, 'none');
  }

  function renderOrphansAndRemotes(v) {
    const orphans = v.orphaned_instances.map((o) => el('li', null, name(o), ' pid ' + o.pid + ': client pid '
      + o.parent_pid + ' is gone (started ', outside(localTime(o.parent_started_at)), ')'));
    fill($('orphan-count'), '(' + orphans.length + ')');
    replace($('orphans'), orphans, 'none');
    const remotes = v.remote_instances.map((r) => el('li', null, name(r), ' pid ' + r.pid + ' on host ',
      outside(r.host_id), ' (cohort ', outside(r.cohort_id), ', revision ', outside(r.startup_head), ')'));
    fill($('remote-count'), '(' + remotes.length + ')');
    replace($('remotes'), remotes, 'none');
  }

  function renderFooter(v) {
    const o = v.observation;
    fill($('digest'), v.verdict_digest);
    fill($('observed'), outside(localTime(o.observed_at)), ' ' + zone());
    fill($('observer'), outside(o.hostname), o.answered_by ? ' (pid ' + o.answered_by.pid + ')' : '');
    fill($('registry'), outside(o.registry_path), ': ', ...(v.registry.readable ? ['readable, '
      + v.registry.registration_count + ' rows'] : ['unreadable (', outside(v.registry.reason), ')']));
    fill($('listing'), ...(v.process_listing.available ? [v.process_listing.server_process_count
      + ' server processes'] : ['unavailable (', outside(v.process_listing.reason), ')']));
  }

  function addToTimeline(v) {
    const now = anomalyLines(v);
    const item = el('li', null, el('span', 'when', localTime(v.observation.observed_at || '')),
      ' ' + (v.mutation_gate_satisfied ? 'gate satisfied' : v.blocked_reason)
        + ' · ' + v.running_member_count + '/' + v.expected_member_count + ' running');
    item.dataset.digest = v.verdict_digest;
    if (previousAnomalies === null) {
      item.append(...nodes([' · page opened']));
    }
    const before = new Set((previousAnomalies || []).map(plain));
    const after = new Set(now.map(plain));
    const changes = el('ul', 'changes');
    now.filter((line) => !before.has(plain(line))).forEach((line) => changes.append(el('li', 'appeared', '+ ', ...line)));
    (previousAnomalies || []).filter((line) => !after.has(plain(line)))
      .forEach((line) => changes.append(el('li', 'left', '- ', ...line)));
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

  // The roster's order first, then the live verdict; without the order, the verdict's.
  function start() {
    fetch('/roster').then((answer) => (answer.ok ? answer.json() : null)).catch(() => null).then((roster) => {
      if (roster && Array.isArray(roster.members)) {
        rosterOrder = new Map(roster.members.map((m, n) => [key(m), n]));
      }
      connect();
    });
  }

  // The tab's title says the gate, and whether the page is live: a tab in the background is read too.
  function showTitle() {
    const state = $('gate').dataset.state;
    const gate = state === 'satisfied' ? 'gate satisfied' : state === 'blocked' ? 'gate NOT satisfied' : 'dashboard';
    document.title = (document.body.dataset.connection === 'lost' ? '(not live) ' : '') + 'fleet: ' + gate;
  }

  // Whether the page hears the dashboard. Not live, the verdict it keeps is marked as possibly out of date,
  // and says since when nothing came: a dashboard stopped, frozen or out of reach sends nothing at all.
  function showConnection(state, label) {
    const connection = $('connection');
    connection.dataset.state = state;
    connection.textContent = label;
    document.body.dataset.connection = state;
    const stale = $('gate-stale');
    stale.hidden = state !== 'lost';
    fill(stale, 'Not live: nothing from the dashboard since ' + localClock(new Date(lastWord))
      + '. This verdict may be out of date.');
    showTitle();
  }

  // The dashboard's keep-alive event: when its latest look was (the verdict's own time is its last change's).
  function alive(word) {
    if (word.looked_at) fill($('looked'), outside(localTime(word.looked_at)));
    if (word.keep_alive_ms > 0) silenceLimitMs = SILENCES * word.keep_alive_ms;
  }

  // The page hears something at least every keep-alive period (15 s); after SILENCES of them without a word
  // it takes the stream for dead, and opens another.
  const SILENCES = 3;
  const RETRY_FIRST_MS = 1000;
  const RETRY_MOST_MS = 10000;
  let silenceLimitMs = SILENCES * 15000;
  let lastWord = Date.now();
  let source = null;
  let retryMs = RETRY_FIRST_MS;
  let retry = null;

  function connect() {
    clearTimeout(retry);
    if (source) source.close();
    const events = new EventSource('/events');
    source = events;
    events.addEventListener('open', () => {
      lastWord = Date.now();
      retryMs = RETRY_FIRST_MS;
      showConnection('live', 'live');
    });
    events.addEventListener('error', () => {
      showConnection('lost', 'reconnecting…');
      // The browser opens the stream again by itself after a network error; an answer that is no stream (a 503:
      // all the dashboard's pages are taken) ends it for good, so the page tries again itself, less often each time.
      if (events.readyState === EventSource.CLOSED) retryLater();
    });
    events.addEventListener('verdict', (event) => {
      lastWord = Date.now();
      show(JSON.parse(event.data));
    });
    events.addEventListener('alive', (event) => {
      lastWord = Date.now();
      alive(JSON.parse(event.data));
    });
  }

  function retryLater() {
    clearTimeout(retry);
    retry = setTimeout(connect, retryMs);
    retryMs = Math.min(2 * retryMs, RETRY_MOST_MS);
  }

  setInterval(() => {
    if (source && source.readyState === EventSource.OPEN && Date.now() - lastWord > silenceLimitMs) {
      showConnection('lost', 'silent since ' + localClock(new Date(lastWord)) + ' · reconnecting…');
      source.close();
      retryLater();
    }
  }, 1000);

  start();
})();
