import type { Pack } from './types.js';

const RECURSIVE_DELETERS = '["rm", "rmdir", "srm", "rimraf", "trash", "trash-put"]';

/** Folders people care about that the built-in rm rule does not name. */
export const protectedPathsPack: Pack = {
  id: 'protected-paths',
  description: 'Recursive deletes of macOS and WSL roots (/System, /Library, /Applications, /Volumes/*, /private, /mnt/c/…), of home sub-trees people keep work in (~/projects/*, ~/Documents/*, ~/src/*), of a repository\'s .git internals (.git/objects, .git/refs), and of globs that match .git (.g*, .[!.]*, .??*).',
  rules: String.raw`
[[rule]]
id = "platform-root"
reason = "deletes a macOS or WSL system or volume folder"
commands = ${RECURSIVE_DELETERS}
flags_all = ["-r|-R|--recursive"]
targets_any = '^(?:/(?:System|Library|Applications|Volumes|private|cores|Network|Users)(?:/[^/]+)?|/Users/[^/]+/(?:Library|Documents|Desktop)|/mnt/[a-z](?:/[^/]+){0,2}|/mnt/wsl(?:/.*)?|/c(?:/[^/]+)?)/?$'

[[rule]]
id = "home-subtree"
reason = "deletes a folder of the user's work or documents (or everything in one)"
commands = ${RECURSIVE_DELETERS}
flags_all = ["-r|-R|--recursive"]
targets_any = '^~/(?:[^/]+/\*|(?:projects|src|code|work|dev|git|repos|workspace|Documents|Desktop|Pictures|Music|Videos|Downloads|Dropbox|OneDrive|Library)(?:/[^/]+)?|\.[^/]+/\*)/?$'

[[rule]]
id = "git-internals"
reason = "deletes a repository's history (.git/objects, refs, the whole .git)"
commands = ["rm", "rmdir", "srm", "rimraf", "shred", "find"]
targets_any = '(?:^|/)\.git/(?:objects|refs|logs|packed-refs|HEAD|index)(?:/.*)?$'

[[rule]]
id = "glob-matches-git"
reason = "a glob that matches .git (.g*, .[!.]*, .??*, .*) deletes the repository's history"
commands = ["rm"]
flags_all = ["-r|-R|--recursive"]
args_any = '^(?:.*/)?\.(?:g\*|gi\*|\[!\.\]\*|\[\^\.\]\*|\?\?\*|\?\?\?\*|\*)$|^(?:.*/)?\.\[[^\]]*g[^\]]*\]'
`,
};
