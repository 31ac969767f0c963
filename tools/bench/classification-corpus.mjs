// The classification bench's synthetic intentions (see classification-scale.mjs): a business
// vocabulary drawn with skew and an endless, deterministic stream of distinct intentions.
import { cap, coinedWord, mulberry32, pick, powerRank, words, zipf } from './classification-random.mjs';
import { CADENCES, DOMAINS, DOMAIN_ORDER, FIELD_WORDS, INSIGHTS, PURPOSES, REGIONS, SITUATIONS, TEAMS } from './classification-vocabulary.mjs';

const CLASS_MIX = zipf(['lookup', 'write', 'reporting', 'analysis', 'export', 'admin', 'other'], 0.9);
const LABEL_VERBS = {
  lookup: ['lookup', 'read', 'view'],
  write: ['update', 'create', 'write', 'manage'],
  export: ['export'],
  admin: ['admin'],
  reporting: ['report', 'reporting'],
  analysis: ['analysis', 'insights'],
  other: ['sync'],
};
// Templates: {src} source name, {obj}/{objs} object, {Obj} capitalised, {f1}..{f3} fields, {team},
// {purpose}, {situation}, {insight}, {cadence}, {Cadence}.
const TEMPLATES = {
  lookup: {
    display: ['Look up {src} {objs}', '{Obj} lookup', 'View {obj} details', 'Find {objs} in {src}', '{Obj} lookup for {team}'],
    first: [
      'Look up a single {obj} in {src} by {f1} or {f2} for {purpose}.',
      'Read one {obj} record from {src}, including its {f1}, {f2} and {f3}, during {situation}.',
      'Retrieve {objs} from {src} by {f1} for {purpose}.',
      'View the {f1} and {f2} of a {obj} in {src} when the {team} team needs them.',
    ],
    extra: ['Read-only access.', 'Personal data such as {f3} must not be copied elsewhere.'],
  },
  write: {
    display: ['Update {src} {objs}', 'Create {obj}', 'Edit {obj} {f1}', 'Manage {objs}', 'Update {obj} records for {team}'],
    first: [
      'Create or update {objs} in {src}: {f1}, {f2} and {f3}.',
      'Edit the {f1} and {f2} of an existing {obj} in {src} after {situation}.',
      'Add a new {obj} to {src} with its {f1} and {f2}.',
      'Change the {f1} of {objs} in {src} for {purpose}.',
    ],
    extra: ['Deleting {objs} is not covered.', 'Changes are logged for the {team} team.', 'Bulk changes need a second reviewer.'],
  },
  export: {
    display: ['Export {src} {objs}', '{Obj} export', 'Bulk {obj} export for {team}', 'Download {objs}'],
    first: [
      'Bulk export of {objs} with {f1} and {f2} from {src} to a CSV file for {purpose}.',
      'Download all {objs} matching a filter on {f1} as a spreadsheet for {purpose}.',
      'Extract {obj} {f1} and {f2} from {src} into the data warehouse for {purpose}.',
    ],
    extra: ['Requires approval from the data owner.', 'Files must stay in the {team} shared drive.'],
  },
  admin: {
    display: ['Administer {src} {objs}', '{src} {obj} administration', 'Manage {obj} settings', '{Obj} admin for {team}'],
    first: [
      'Manage {obj} configuration in {src}: {f1}, {f2}, permissions and settings.',
      'Administer {src} {objs} for the {team} team, including {f1} and access control.',
      'Configure how {objs} work in {src}, such as {f1} and {f2} rules.',
    ],
    extra: ['Only workspace administrators may use it.', 'Changes are reviewed in the {cadence} access review.'],
  },
  reporting: {
    display: ['{src} {obj} report', '{Cadence} {obj} report', '{Obj} dashboard for {team}', '{Obj} {f1} summary'],
    first: [
      'Summarise {objs} by {f1} and {f2} for the {cadence} review.',
      'Build the {cadence} report of {obj} {f1} per {f2} for {team} leadership.',
      'Report on {objs} in {src} grouped by {f1} for {purpose}.',
    ],
    extra: ['Aggregates only.', 'Shared with the {team} team every {cadence} cycle.'],
  },
  analysis: {
    display: ['Analyse {obj} trends', '{Obj} {f1} analysis', '{src} {obj} analytics', '{Obj} insights for {team}'],
    first: [
      'Analyse {obj} {f1} and {f2} over time to find {insight}.',
      'Investigate patterns in {objs} ({f1}, {f2}) to explain {insight}.',
      'Compare {obj} {f1} across {f2} in {src} to spot {insight}.',
    ],
    extra: ['Results feed the {cadence} {team} review.', 'Individual records are not shared outside the team.'],
  },
  other: {
    display: ['Sync {src} {objs}', '{Obj} sync for {team}'],
    first: ['Keep {objs} in {src} in sync with the {team} systems, matching on {f1}.', 'Mirror {obj} {f1} and {f2} from {src} into internal tools.'],
    extra: ['Runs as a scheduled job.'],
  },
};

/**
 * The intention stream: an endless, deterministic sequence of distinct intentions. Each one is a
 * (source, object, class) from the skewed catalogue, written up from templates, with a team,
 * sometimes a region, a project code name or org-specific custom fields. Labels are unique:
 * the first `crm.contacts.lookup` gets the plain label, later variants a team/region suffix.
 */
export function* intentionStream(seed) {
  const rand = mulberry32(seed);
  const domainOf = zipf(DOMAIN_ORDER, 0.9);
  const sourceOf = Object.fromEntries(Object.entries(DOMAINS).map(([d, v]) => [d, zipf(v.sources, 1.1)]));
  const objectOf = new Map();
  for (const { sources, objects } of Object.values(DOMAINS)) {
    for (const [id, , own] of sources) objectOf.set(id, zipf(own ? Object.keys(objects).filter((o) => own.split(',').includes(o)) : Object.keys(objects), 0.7));
  }
  const teamOf = zipf(TEAMS, 0.8);
  const fieldWordOf = zipf(FIELD_WORDS, 0.9);
  const purposeOf = zipf(PURPOSES, 0.6);
  const labels = new Set();
  for (let i = 0; ; i++) {
    const domain = domainOf(rand);
    const [sourceId, sourceName] = sourceOf[domain](rand);
    const objKey = objectOf.get(sourceId)(rand);
    const [plural, fieldList] = DOMAINS[domain].objects[objKey].split('|');
    const cls = CLASS_MIX(rand);
    const team = teamOf(rand);
    const region = rand() < 0.3 ? pick(rand, REGIONS) : undefined;
    // Code names: a heavy tail, so new ones keep appearing as the catalogue grows.
    const project = rand() < 0.4 ? coinedWord(powerRank(rand, 0.2), 7) : undefined;
    const fields = fieldList.split(',');
    const custom = [];
    for (let c = rand() < 0.35 ? 1 + Math.floor(rand() * 2) : 0; c > 0; c--) {
      const head = rand() < 0.5 ? coinedWord(powerRank(rand, 0.2), 13) : fieldWordOf(rand);
      custom.push(`${head}_${fieldWordOf(rand)}`);
    }
    const chosen = [];
    const pool = [...fields];
    while (chosen.length < 3 && pool.length) chosen.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
    if (custom.length && rand() < 0.6) chosen[2] = custom[0];

    const vars = {
      src: sourceName,
      obj: words(objKey),
      objs: words(plural),
      Obj: cap(words(objKey)),
      f1: words(chosen[0] ?? 'name'),
      f2: words(chosen[1] ?? chosen[0] ?? 'owner'),
      f3: words(chosen[2] ?? chosen[0] ?? 'status'),
      team: region ? `${region.toUpperCase()} ${team}` : team,
      purpose: purposeOf(rand),
      situation: pick(rand, SITUATIONS),
      insight: pick(rand, INSIGHTS),
      cadence: pick(rand, CADENCES),
    };
    vars.Cadence = cap(vars.cadence);
    const fill = (t) => t.replace(/\{(\w+)\}/g, (_, k) => vars[k]);
    const tpl = TEMPLATES[cls];
    let description = fill(pick(rand, tpl.first));
    const r = rand();
    if (r < 0.35) description += ` ${fill(pick(rand, tpl.extra))}`;
    else if (r < 0.6) description += ` Used by the ${vars.team} team${project ? ` for Project ${cap(project)}` : ''}.`;
    else if (project) description += ` Part of Project ${cap(project)}.`;
    // Key-account intentions name the customer (an org-specific word like the code names).
    if (rand() < 0.12) description += ` Scoped to the ${cap(coinedWord(powerRank(rand, 0.25), 29))} account.`;

    const base = `${domain}.${plural}.${pick(rand, LABEL_VERBS[cls])}`;
    const slug = (s) => s.replace(/[^a-z0-9]+/gi, '_').toLowerCase();
    let label = base;
    for (const suffix of [
      slug(team),
      region && `${region}_${slug(team)}`,
      project && `${project}_${slug(team)}`,
      `${slug(team)}_${slug(vars.purpose)}`,
      `${slug(team)}_${i.toString(36)}`,
    ]) {
      if (!labels.has(label)) break;
      if (suffix) label = `${base}.${suffix}`;
    }
    if (labels.has(label)) continue;
    labels.add(label);

    const paths = new Set(chosen.map((f) => `${plural}.${f}`));
    while (paths.size < 2 + Math.floor(rand() * 3)) paths.add(`${plural}.${pick(rand, [...fields, ...custom])}`);
    let displayName = fill(pick(rand, tpl.display));
    if (project && rand() < 0.3) displayName += ` (${cap(project)})`;
    yield {
      id: `int_${Math.floor(rand() * 2 ** 52)
        .toString(36)
        .padStart(10, '0')}${i.toString(36)}`,
      label,
      displayName,
      description,
      intentClass: cls,
      dataElements: [...paths].map((path) => ({ dataSourceId: sourceId, path })),
      status: 'active',
    };
  }
}
