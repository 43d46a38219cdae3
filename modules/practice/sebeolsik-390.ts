/**
 * 세벌식 390 (공병우, 1990), on a US-layout keyboard: each key's jamo and its jamo with Shift, from libhangul's
 * `data/keyboards/hangul-keyboard-39.xml` (README "Layouts"). "_" is a key that types no Hangul there (a digit or a
 * sign). Finals are final jamo (ᆨ); ᆻ ᆩ ᆰ ᆱ ᆭ ᆶ ᆹ ㅢ have keys of their own and can also be typed as two keys.
 */
import { keyRow } from "./key-caps";
import { sebeolsikLayout } from "./sebeolsik";

export const SEBEOLSIK_390 = sebeolsikLayout("sebeolsik-390", [
  keyRow("number", "1234567890", "ᇂᆻᆸㅛㅠㅑㅖㅢㅜㅋ", "ᆽ_________"),
  keyRow("top", "QWERTYUIOP", "ᆺᆯㅕㅐㅓㄹㄷㅁㅊㅍ", "ᇁᇀᆿㅒ______"),
  keyRow("home", "ASDFGHJKL;'", "ᆼᆫㅣㅏㅡㄴㅇㄱㅈㅂㅌ", "ᆮᆭᆰᆩ_______"),
  keyRow("bottom", "ZXCVBNM,./", "ᆷᆨㅔㅗㅜㅅㅎ__ㅗ", "ᆾᆹᆱᆶ______"),
]);
