/**
 * The docker ps / docker images parsers on real output: fixtures/structured/docker-*.raw were
 * recorded by fixtures/record.ts from a real Docker engine (see fixtures/README.md), through a
 * PTY with exactly the flags the structured handler injects. No engine is needed here: the
 * bytes go through the same decoding the handler applies to a live capture.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fromTerminal, stripEscapes } from './run.js';
import { DOCKER_JSON_FORMAT, parseDockerImages, parseDockerPs } from './structured.js';

const STRUCTURED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/structured');

interface Recorded {
  argv: string[];
  exitCode: number;
  /** The handler's view of the output: PTY line endings undone, escapes removed. */
  text: string;
}

function recorded(name: string): Recorded {
  const meta = JSON.parse(readFileSync(path.join(STRUCTURED, `${name}.json`), 'utf8')) as { argv: string[]; exitCode: number };
  const text = stripEscapes(fromTerminal(readFileSync(path.join(STRUCTURED, `${name}.raw`), 'utf8')));
  return { argv: meta.argv, exitCode: meta.exitCode, text };
}

describe('docker ps (recorded from a real engine)', () => {
  it('was recorded with the flags the handler injects, right after the subcommand', () => {
    expect(recorded('docker-ps').argv).toEqual(['docker', 'ps', ...DOCKER_JSON_FORMAT]);
    expect(recorded('docker-ps-all').argv).toEqual(['docker', 'ps', ...DOCKER_JSON_FORMAT, '-a']);
  });

  it('running containers: name, image, status, and the published ports (JSON-escaped `->` decoded)', () => {
    const r = recorded('docker-ps');
    expect(r.exitCode).toBe(0);
    // Real output has non-string values ("Platform":null) and \u003e escapes.
    expect(r.text).toContain('"Platform":null');
    expect(r.text).toContain('0.0.0.0:18080-\\u003e80/tcp');
    expect(parseDockerPs(r.text)).toEqual([
      'mish-sleeper  mish-busybox:local  Up 4 seconds',
      'mish-web  mish-busybox:local  Up 5 seconds  0.0.0.0:18080->80/tcp, [::]:18080->80/tcp',
    ]);
  });

  it('-a: created and exited containers, each exit code kept in the status', () => {
    expect(parseDockerPs(recorded('docker-ps-all').text)).toEqual([
      'mish-fresh  mish-busybox:local  Created',
      'mish-failed  mish-busybox:local  Exited (3) 2 seconds ago',
      'mish-done  mish-busybox:local  Exited (0) 3 seconds ago',
      'mish-sleeper  mish-busybox:local  Up 4 seconds',
      'mish-web  mish-busybox:local  Up 5 seconds  0.0.0.0:18080->80/tcp, [::]:18080->80/tcp',
    ]);
  });

  it('one row per container: every ID in the raw listing is a row', () => {
    const r = recorded('docker-ps-all');
    const ids = r.text.match(/"ID":"[0-9a-f]{12}"/g) ?? [];
    expect(ids).toHaveLength(5);
    expect(parseDockerPs(r.text)).toHaveLength(ids.length);
  });

  it('no containers: says so instead of printing nothing', () => {
    expect(parseDockerPs('')).toEqual(['no containers']);
  });
});

describe('docker images (recorded from a real engine)', () => {
  it('was recorded with the flags the handler injects', () => {
    expect(recorded('docker-images').argv).toEqual(['docker', 'images', ...DOCKER_JSON_FORMAT]);
  });

  it('repository:tag, size, id, age; the dangling image a multi-stage build leaves is <none>:<none>', () => {
    const r = recorded('docker-images');
    expect(r.exitCode).toBe(0);
    expect(parseDockerImages(r.text)).toEqual([
      'mish-demo:latest  48B  52b3e5d0b605  7 seconds ago',
      '<none>:<none>  1.98MB  331aedb602b4  9 seconds ago',
      'mish-busybox:local  1.98MB  f8439e40afd4  10 seconds ago',
    ]);
  });

  it('no images: says so', () => {
    expect(parseDockerImages('\n')).toEqual(['no images']);
  });
});

describe('docker ps: a line that is not JSON', () => {
  it('the client warning printed before the listing is kept as written, then the rows', () => {
    const r = recorded('docker-ps-config-warning');
    expect(r.exitCode).toBe(0);
    const rows = parseDockerPs(r.text);
    expect(rows[0]).toMatch(/^WARNING: Error parsing config file \(\/.*\/docker-config\/config\.json\): unexpected EOF$/);
    expect(rows.slice(1).map((row) => row.split('  ')[0])).toEqual(['mish-sleeper', 'mish-web']);
  });
});
