/**
 * 세벌식 최종 (공병우, 1991), on a US-layout keyboard: each key's jamo and its jamo with Shift, from libhangul's
 * `data/keyboards/hangul-keyboard-3f.xml` (README "Layouts"). "_" is a key that types no Hangul there. Differs from
 * 390 in its Shift keys: most double finals have one (ᆩ ᆰ ᆵ ᆴ ᆬ ᆶ ᆳ ᆲ ᆱ ᆪ ᆹ), ᆽ is Shift+3, ᆿ Shift+C, ㅒ Shift+G.
 */
import { keyRow } from "./key-caps";
import { sebeolsikLayout } from "./sebeolsik";

export const SEBEOLSIK_FINAL = sebeolsikLayout("sebeolsik-final", [
  keyRow("number", "1234567890", "ᇂᆻᆸㅛㅠㅑㅖㅢㅜㅋ", "ᆩᆰᆽᆵᆴ_____"),
  keyRow("top", "QWERTYUIOP", "ᆺᆯㅕㅐㅓㄹㄷㅁㅊㅍ", "ᇁᇀᆬᆶᆳ_____"),
  keyRow("home", "ASDFGHJKL;'", "ᆼᆫㅣㅏㅡㄴㅇㄱㅈㅂㅌ", "ᆮᆭᆲᆱㅒ______"),
  keyRow("bottom", "ZXCVBNM,./", "ᆷᆨㅔㅗㅜㅅㅎ__ㅗ", "ᆾᆹᆿᆪ______"),
]);
