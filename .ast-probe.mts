import { parse } from 'unbash';
const s = parse(process.argv[2]) as any;
console.log(JSON.stringify(s.commands.map((c: any) => c.command), (k, v) => (k === 'pos' || k === 'end' ? undefined : v), 1).slice(0, 3000));
