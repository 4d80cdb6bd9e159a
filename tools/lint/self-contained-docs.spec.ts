import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..');

/** Every tracked text file: a clone holds these and nothing beside them. */
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' })
  .split('\0')
  // files only: a tracked link (sdks/python/tests/vectors) is read where it leads
  .filter((path) => path !== '' && path !== 'package-lock.json' && existsSync(join(REPO, path)) && lstatSync(join(REPO, path)).isFile())
  .map((path) => ({ path, text: readFileSync(join(REPO, path)) }))
  .filter(({ text }) => !text.includes(0))
  .map(({ path, text }) => ({ path, text: text.toString('utf8') }));

// Spelt in pieces, so this file does not name what it looks for.
const OUTSIDE = new RegExp(['\\.\\./shared', 'shared\\/spec', '(?<![\\w/.-])interface\\.md', '(?<![\\w/.-])contract\\.md'].join('|'));

/** Markdown link targets: `[text](target)` and `[name]: target`. */
const LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)/gm;

/**
 * The README and every doc stand alone in a clone: nothing names documents that live outside the
 * repository (the product's source specification is not in it; docs/contract.md says what the API
 * promises), and every relative link in a Markdown file reaches a file of the repository.
 */
describe('the repository stands alone', () => {
  it('has tracked files to check', () => {
    expect(tracked.length).toBeGreaterThan(100);
  });

  it('names no document outside it, in docs, code or comments', () => {
    const found = tracked.flatMap(({ path, text }) =>
      text.split('\n').flatMap((line, i) => (OUTSIDE.test(line) ? [`${path}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('links, in every Markdown file, only to files of the repository', () => {
    const broken: string[] = [];
    for (const { path, text } of tracked.filter((f) => f.path.endsWith('.md'))) {
      for (const match of text.matchAll(LINK)) {
        const target = (match[1] ?? match[2]).replace(/[#?].*$/, '');
        if (target === '' || /^[a-z][\w+.-]*:/i.test(target)) continue; // an anchor, or an absolute URL
        const resolved = resolve(REPO, dirname(path), decodeURIComponent(target));
        const inside = !relative(REPO, resolved).startsWith('..');
        if (!inside || !existsSync(resolved)) broken.push(`${path}: ${match[0].trim()}${inside ? '' : ' (outside the repository)'}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
