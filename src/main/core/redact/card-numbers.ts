/**
 * Payment card numbers (PANs) and their security codes where a card's fields name them: a gateway's debug log of a request body
 * (`"card":{"number":"4539…","exp_month":"09","cvc":"316"}`: adv169 F20), a form body (`card[number]=…&card[cvc]=…`), a
 * `card_number` / `cardNumber` setting. Card data is not a credential of the agent's, but whoever reads it can pay with it, and a
 * log that holds it is a PCI incident already: the agent never needs the digits.
 *
 * Only a number that passes the Luhn check (every real PAN does; an order id or a timestamp of 16 digits seldom does, 1 in 10)
 * and is not one of the test cards the payment providers publish (Stripe's `4242 4242 4242 4242`, Adyen's, Braintree's: what a
 * developer's logs hold nearly always, and what the agent may need to see to know which case ran). Hand-written: no package on
 * the registry ships the providers' test-card lists as data, and the Luhn check is five lines.
 */
import type { SecretFinding } from './finding.js';

/** The card keyword's hit as the scanner's pass finds it (lower case). */
export const CARD_WORD = 'card';

/** A PAN's digits, written whole or in groups of blanks or dashes (13 to 19 digits). */
const PAN = String.raw`(?<pan>\d(?:[ -]?\d){12,18})(?![\d-])`;
/**
 * Between a field's name and its value: `: "`, `=`, `=> '`, PHP's var_dump (`["card_number"]=>` then `  string(16) "…"` on the next
 * line).
 */
const FIELD_SEPARATOR = String.raw`["']?\]?[ \t]*(?:=>[ \t]*(?:\r?\n[ \t]*)?(?:string\(\d{1,2}\)[ \t]*)?|[:=])[ \t]*["']?`;
/** After the hit `card`: a field named for the number (`card_number`, `cardNumber`, `card[number]`, `card_no`), then its value. */
const NUMBER_FIELD = new RegExp(String.raw`(?:[_.-]?(?:number|num|no)|Number|\[number\])${FIELD_SEPARATOR}${PAN}`, 'y');
/** Other names of the number: `pan` (ISO 8583's `DE002 (PAN):`, a processor's `"pan":`), `ccnum`, `cc_number`. */
export const PAN_WORDS = ['pan', 'ccnum', 'cc_num', 'cc-num'];
/** After one of PAN_WORDS: the rest of its name, a bracket's close (`(PAN):`), then the value. */
const PAN_FIELD = new RegExp(String.raw`(?:ber)?\)?${FIELD_SEPARATOR}${PAN}`, 'iy');
/**
 * After `card`: its object (`"card": {`, `card: {`, `'card' => [`, a log's `card={…}`: pass 237 S33; Go's `%+v`, `Card:{Number:…}`:
 * adv245 F47), its flat fields up to the number.
 */
const CARD_OBJECT = new RegExp(String.raw`["']?[ \t]*(?:=>|[:=])[ \t]*[{[](?<fields>[^{}[\]]{0,400}?)["']?[Nn]umber["']?[ \t]*(?:=>|[:=])[ \t]*["']?${PAN}`, 'y');
/** The security code among a card's fields, or a form body's (`&card[cvc]=316`). */
const SECURITY_CODE = new RegExp(String.raw`(?:(?<![A-Za-z0-9_])["']?(?:cvc|cvv|cvv2|cvc2|security_?code|csc)${FIELD_SEPARATOR}|\[(?:cvc|cvv)\]=)(?<code>\d{3,4})(?!\d)`, 'i');
/** How far past the number a card's security code is looked for (the rest of its object, its form's fields). */
const SECURITY_CODE_CHARS = 200;

/** The providers' published test cards (Stripe, Adyen, Braintree, PayPal sandbox), digits only. */
const TEST_CARDS = new Set([
  '4242424242424242', '4000056655665556', '5555555555554444', '2223003122003222', '5200828282828210', '5105105105105100',
  '378282246310005', '371449635398431', '6011111111111117', '6011000990139424', '3056930009020004', '36227206271667',
  '6555900000604105', '3566002020360505', '6200000000000005', '4111111111111111', '4012888888881881', '4222222222222',
  '5454545454545454', '4917610000000000', '4988438843884305', '4166676667666746', '370000000000002', '6011601160116611',
  '4000000000000002', '4000000000009995', '4000000000000077', '4000000000003220', '4000002500003155', '4000000000000341',
]);

/** Does a PAN's digit string pass the Luhn check? */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 0x30;
    if (double && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return sum % 10 === 0;
}

/** A real card's number: Luhn-valid, not a published test card, not one digit repeated (`0000 0000 0000 0000`). */
export function isCardNumber(written: string): boolean {
  const digits = written.replace(/[ -]/g, '');
  return luhn(digits) && !TEST_CARDS.has(digits) && !/^(\d)\1+$/.test(digits) && !/^4000000/.test(digits);
}

/**
 * From the hit `card` ending at `end`: the number of a card's field or object, and its security code after it. Returns where
 * it read to (a later hit inside is not read again).
 */
export function cardNumberAt(text: string, end: number, out: SecretFinding[]): number | void {
  return numberAt(text, end, [NUMBER_FIELD, CARD_OBJECT], out);
}

/** From a hit of PAN_WORDS ending at `end`, a word of its own (`span`, `expand`, `panel` are none): its value, as cardNumberAt. */
export function panFieldAt(text: string, end: number, word: number, out: SecretFinding[]): number | void {
  const before = text.charCodeAt(end - word - 1);
  if ((before >= 0x41 && before <= 0x5a) || (before >= 0x61 && before <= 0x7a) || (before >= 0x30 && before <= 0x39)) return;
  return numberAt(text, end, [PAN_FIELD], out);
}

function numberAt(text: string, end: number, readers: readonly RegExp[], out: SecretFinding[]): number | void {
  let m: RegExpExecArray | null = null;
  for (const re of readers) {
    re.lastIndex = end;
    m = re.exec(text);
    if (m) break;
  }
  if (!m || !isCardNumber(m.groups!.pan)) return;
  const panEnd = m.index + m[0].length;
  const panStart = panEnd - m.groups!.pan.length;
  out.push({ start: panStart, end: panEnd, kind: 'card number', byContext: true });
  // The security code: before the number in its object (`"cvc"` first), or after it, up to the object's or the form's end.
  if (m.groups!.fields !== undefined) codeIn(text, m.index, panStart, out);
  // (Over lines: PHP's var_dump puts each field on two.)
  const close = text.slice(panEnd, panEnd + SECURITY_CODE_CHARS).search(/}/);
  codeIn(text, panEnd, panEnd + (close < 0 ? SECURITY_CODE_CHARS : close), out);
  return panEnd;
}

/** A card's security code between `from` and `to`. */
function codeIn(text: string, from: number, to: number, out: SecretFinding[]): void {
  const at = Math.max(0, from);
  const m = SECURITY_CODE.exec(text.slice(at, to));
  if (m) out.push({ start: at + m.index + m[0].length - m.groups!.code.length, end: at + m.index + m[0].length, kind: 'card security code', byContext: true });
}
