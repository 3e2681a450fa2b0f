/**
 * Instruction override and system-prompt extraction in languages the word lists cannot serve:
 * Chinese (simplified and traditional) and Japanese write no spaces, so a fold-view token is a
 * whole clause; Korean, Turkish and Hindi glue particles and endings to the noun; Russian,
 * Ukrainian and Arabic inflect it. Each language gets a few linear patterns over the light view
 * (NFKC, invisible characters removed, Hangul composed, Cyrillic not folded to Latin), run only
 * when the text holds that script.
 *
 * The signal is the same combination as in override.ts and extraction.ts:
 * - override: an imperative override verb and an instruction noun in one clause, in the order the
 *   language puts them (object first in Japanese, Korean, Hindi and Turkish; Chinese object-first
 *   only with 把/将 or 都/全部), strong with a scope word (previous, all, above, system, your),
 *   weak without; "my previous request" (and nothing like "all"/"your") takes back the user's own
 *   words; a reported or negated verb ("让聊天机器人忽略", "不要忽略") is a description.
 * - extraction: a disclosure verb next to the model's set-up ("system prompt", "initial
 *   instructions", "your instructions") with only particles or "verbatim"/"in full" between,
 *   so "how to write a good system prompt" or "give an example of a system prompt" stay apart;
 *   "your system prompt" named outright is weaker evidence, as in English.
 *
 * Gaps are bounded character classes and no quantified group holds an unbounded quantifier, so
 * each pattern runs in O(text x gap).
 */
import type { SpanEmit } from '../types.ts';

/** Scripts present in a text (one pass; a language's patterns run only when its bit is set). */
export const SCRIPT = { HAN: 1, KANA: 2, HANGUL: 4, CYRILLIC: 8, ARABIC: 16, DEVANAGARI: 32, LATIN_EXT: 64 } as const;

export function scriptsOf(text: string): number {
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xc0) continue;
    if (c < 0x250) bits |= SCRIPT.LATIN_EXT;
    else if (c >= 0x400 && c <= 0x52f) bits |= SCRIPT.CYRILLIC;
    else if (c >= 0x600 && c <= 0x6ff) bits |= SCRIPT.ARABIC;
    else if (c >= 0x900 && c <= 0x97f) bits |= SCRIPT.DEVANAGARI;
    else if (c >= 0x3040 && c <= 0x30ff) bits |= SCRIPT.KANA;
    else if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf)) bits |= SCRIPT.HAN;
    else if (c >= 0xac00 && c <= 0xd7a3) bits |= SCRIPT.HANGUL;
  }
  return bits;
}

interface Language {
  readonly lang: string;
  /** script bits of which one must be present; `needle`, when set, must match too */
  readonly gate: number;
  readonly needle?: RegExp;
  /** script bits that rule the language out (kana: Han characters in Japanese text are not Chinese) */
  readonly without?: number;
  /** override verb + instruction noun in one clause */
  readonly override: readonly RegExp[];
  /** disclosure verb + the model's set-up */
  readonly extract: readonly RegExp[];
  /** the model's own set-up named outright ("your system prompt") */
  readonly setup?: RegExp;
  /** previous / all / above / system / your: what makes an override strong */
  readonly scope: RegExp;
  /** system / initial / hidden: an extraction that needs no "your" */
  readonly system: RegExp;
  /** "my": the user's own earlier words; `mine` only counts without `shared` (all, your, system) */
  readonly mine?: RegExp;
  readonly shared?: RegExp;
  /** tested on the clause before the match: a reported, causative or negated verb */
  readonly described?: RegExp;
  /**
   * Every match starts a word. Checked on the character before a match rather than with a
   * leading lookbehind, which the regex engine would evaluate at every position (4x slower).
   */
  readonly wordStart?: boolean;
}

// Characters that end a sentence (Latin, CJK, Arabic ؟ and Devanagari danda); CLAUSE adds commas,
// where the Chinese gaps and the look-back for scope and reporting words stop.
const STOP = '.!?;:。！？；：؟।\n\r';
const CLAUSE = STOP + ',，、،';
/** How far back the scope, "my" and reporting words are looked for. */
const LOOK_BACK = 24;

const re = (source: string): RegExp => new RegExp(source, 'giu');

function chinese(): Language {
  const verb = '(?:忽略|忽視|忽视|无视|無視|不要理会|不要理會|别理会|別理會|不必理会|不必理會|不用理会|不用理會|忘记|忘記|忘掉|抛开|拋開|抛弃|拋棄|丢弃|丟棄|(?:不要|别|別|不用|不必)再?(?:遵守|遵循|执行|執行|服从|服從)|不再(?:遵守|遵循|服从|服從))';
  const noun = '(?:指令|指示|说明|說明|规则|規則|提示词|提示詞|命令|规定|規定|约束|約束|准则|準則|守则|守則|指引)';
  const gap = `[^${CLAUSE}]{0,12}?`;
  const sys = '(?:系统提示词|系统提示|系統提示詞|系統提示|系统指令|系統指令|系统消息|系統消息|系統訊息|系统\\s?prompt|系統\\s?prompt|(?:初始|原始|最初|隐藏|隱藏|内部|內部|开发者|開發者)的?(?:指令|指示|提示词|提示詞|规则|規則))';
  // without "your", a definition or comparison is about system prompts in general: "系统提示词和用户提示词的区别", "系统提示词的写法"
  const general = `${sys}(?![词詞]?(?:是什么|是什麼|是指|和|与|與|跟|及|或|的(?!内容|內容|全文|原文)))`;
  const yours = `你(?:的|收到的|被赋予的|被賦予的)(?:${sys}|指令|指示|提示词|提示詞|规则|規則)`;
  const disclose = '(?:输出|輸出|显示|顯示|打印|告诉我|告訴我|透露|泄露|洩露|泄漏|洩漏|重复|重複|展示|给出|給出|列出|复述|複述|公开|公開|发给我|發給我|说出|說出|念出|贴出|貼出)';
  const manner = '(?:原样|原樣|原封不动地?|原封不動地?|逐字|一字不差地?|完整地?|全部|都)?';
  return {
    lang: 'zh',
    gate: SCRIPT.HAN,
    without: SCRIPT.KANA,
    override: [
      re(`${verb}[^${CLAUSE}]{0,12}?${noun}`),
      // object first: "把之前的指令全部忘掉", "之前的所有指令都忽略"
      re(`(?:把|将|將)[^${CLAUSE}]{0,10}?${noun}${gap}${verb}`),
      re(`${noun}(?:都|全都|全部|统统|統統|一律|一概)${verb}`),
      // "everything above" needs no instruction noun: "忘记之前的一切", "忽略以上所有内容"
      re(`${verb}(?:你)?(?:之前|先前|此前|以上|上面|上述|前面)(?:的)?(?:一切|所有内容|所有內容|全部内容|全部內容|内容|內容)`),
    ],
    extract: [re(`${disclose}(?:一下|出)?(?:给我|給我)?(?:完整的|全部的|所有的|原始的)?(?:${yours}|${general})`), re(`(?:把|将|將)(?:${yours}|${general})${manner}${disclose}`)],
    setup: re(`你的${sys}`),
    scope: /之前|先前|此前|以前|上面|上述|以上|前面|前述|上文|原有|原来|原來|原始|最初|初始|所有|全部|一切|任何|你的|你收到|系统|系統|现有|現有|默认|默認|迄今/u,
    system: /系统|系統|初始|原始|最初|隐藏|隱藏|内部|內部|开发者|開發者/u,
    mine: /我(?:的|之前|先前|刚才|剛才|上面|前面|上一|前一|自己)/u,
    shared: /所有|全部|一切|你的|系统|系統/u,
    described: /让(?!我)|讓(?!我)|诱使|誘使|诱导|誘導|骗|騙|迫使|如何|怎么|怎麼|怎样|怎樣|试图|試圖|企图|企圖|被|不要|不会|不會|无法|無法|切勿|别(?!的|人)|別(?!的|人)|没有|沒有|黑客|攻击者|攻擊者|模型|它|机器人|機器人|有时|有時|经常|經常|总是|總是|为什么|為什麼/u,
  };
}

function japanese(): Language {
  // imperative and te-forms only: 無視させた (made it ignore), 無視している (is ignoring) are reports
  const verb = '(?:(?:無視|むし|破棄|度外視)(?:して|しろ|せよ|すること|しなさい)(?![いおもはがしたま])|忘れ(?:て|ろ|なさい|ること)(?![いおもはがしたま])|(?:従わ|したがわ)(?:ないで|ないこと|なくていい|なくてよい))';
  const noun = '(?:指示|命令|指令|ルール|規則|プロンプト|制約|ガイドライン|インストラクション)';
  const sys = '(?:システムプロンプト|システム・プロンプト|システムメッセージ|システム指示|(?:初期|最初|元|隠され|隠し|内部)の?(?:指示|プロンプト)|あなたへの指示|あなたの(?:指示|プロンプト|ルール))';
  const disclose = '(?:(?:表示|出力|開示|公開|印刷|列挙|暴露)(?:して|しろ|せよ|しなさい)|(?:見せ|教え)(?:て|ろ|なさい)|(?:書き出|繰り返|示)して)';
  const filler = '(?:すべて|全て|全部|一切|完全に|もう|そのまま|一字一句|正確に)?';
  return {
    lang: 'ja',
    gate: SCRIPT.KANA,
    override: [re(`${noun}(?:を|は|も|に|には)${filler}${verb}`)],
    extract: [re(`${sys}(?:を|は)${filler}${disclose}`)],
    setup: re('あなたの(?:システムプロンプト|初期の?指示|初期プロンプト|隠された指示)'),
    scope: /前の|以前の|これまでの|今までの|先の|先ほどの|前回の|上記|上の|最初の|元の|すべて|全て|全部|一切|あらゆる|システム|あなたの|あなたへの|既存の|従来の/u,
    system: /システム|初期|最初|元の|隠さ|隠し|内部/u,
    mine: /私の|わたしの|僕の|自分の|私が/u,
    shared: /すべて|全て|全部|一切|あなた|システム/u,
  };
}

function korean(): Language {
  const verb = '(?:무시(?:하세요|하십시오|하고|해라|하라|해 ?줘|해 ?주세요|해요|해)|잊어 ?(?:버려|버리세요|줘|주세요|라)|잊으세요|잊고|따르지 ?(?:마세요|마라|말고|마))(?![가-힣])';
  const noun = '(?:지시 ?사항|지시문|지시|지침|명령어|명령|규칙|프롬프트|제약|가이드라인)';
  const filler = '(?:모두 |전부 |다 |완전히 )?';
  const sys = '(?:시스템 ?(?:프롬프트|메시지|지시|지침)|(?:초기|원래의?|숨겨진|내부) ?(?:지시|프롬프트|지침)|(?:너의|네|당신의) ?(?:지시|지침|프롬프트|규칙))';
  const disclose = '(?:보여 ?(?:줘|주세요|주십시오|줄래|라)|(?:출력|공개|표시|인쇄|반복)(?:해 ?줘|해 ?주세요|하세요|하십시오|해라|하라|해)|알려 ?(?:줘|주세요|주십시오)|말해 ?(?:줘|주세요|라))';
  return {
    lang: 'ko',
    gate: SCRIPT.HANGUL,
    override: [re(`${noun}(?:을|를|은|는|도|에)? ?${filler}${verb}`)],
    extract: [re(`${sys}(?:을|를|은|는)? ?(?:전부 |모두 |그대로 |정확히 )?${disclose}`)],
    setup: re('(?:너의|네|당신의) ?(?:시스템 ?프롬프트|초기 ?지시|숨겨진 ?지시)'),
    scope: /이전|앞의|앞서|위의|위 |상기|모든|기존|원래|처음|초기|시스템|지금까지|너의|네 |당신의|전부|모두/u,
    system: /시스템|초기|원래|숨겨진|내부/u,
    mine: /(?:^|\s)(?:제|내|나의|저의|제가|내가)\s/u,
    shared: /모든|전부|모두|너의|당신의|시스템/u,
  };
}

function russian(): Language {
  const verb = '(?:(?:про)?игнорируй(?:те)?|забудь(?:те)?|не обращай(?:те)? внимани[ея] на|не учитывай(?:те)?|отбрось(?:те)?|пренебреги(?:те)?|не следуй(?:те)?|перестань(?:те)? следовать|не подчиняйся|(?:должен|должна|должны|нужно|надо|следует) (?:про)?игнорировать|(?:про)?ігноруй(?:те)?|не зважай(?:те)? на|відкинь(?:те)?|не дотримуйся|не виконуй(?:те)?)(?!\\p{L})';
  const noun = '(?:инструкци|указани|правил|директив|промпт|установк|ограничени|распоряжени|предписани|команд|інструкці|вказівк|вказівок|настанов)\\p{L}{0,4}';
  const sys = '(?:системн\\p{L}{0,4} (?:промпт|подсказк|инструкци|сообщени|указани|запрос|інструкці|підказк|повідомлен)\\p{L}{0,4}|(?:исходн|изначальн|первоначальн|начальн|скрыт|внутренн|початков|вихідн|прихован)\\p{L}{0,4} (?:инструкци|промпт|указани|інструкці)\\p{L}{0,4}|(?:свои|твои|ваши|свої|твої|ваші) (?:инструкци|указани|правил|інструкці|вказівк)\\p{L}{0,4}|(?:свой|твой|ваш|свій|твій) (?:промпт|системн\\p{L}{0,4} промпт)\\p{L}{0,3})';
  const disclose = '(?:покажи|выведи|распечатай|напечатай|раскрой|повтори|скажи|назови|выдай|перечисли|процитируй|сообщи|виведи|розкрий|надрукуй|назви)(?:те)?(?!\\p{L})';
  const filler = '(?:(?:мне|нам) )?(?:(?:полностью|дословно|целиком|весь|всю|все|всё|повністю|дослівно) )?';
  return {
    lang: 'ru',
    wordStart: true,
    gate: SCRIPT.CYRILLIC,
    override: [
      re(`${verb}[^${STOP}]{0,40}?${noun}`),
      re(`${noun}[^${STOP}]{0,20}?(?<!\\p{L})${verb}`),
      // "everything you were told before" needs no instruction noun
      re(`${verb},? (?:всё|все|усе|все,)[^${STOP}]{0,30}?(?:выше|раньше|ранее|до этого|говорили|сказали|сказано|написано|вище|раніше|казали)(?!\\p{L})`),
    ],
    extract: [re(`${disclose} ${filler}${sys}`)],
    setup: re('(?:твой|твои|твоего|твоих|ваш|ваши|вашего|ваших|твій|твої|ваші) (?:системн\\p{L}{0,4} (?:промпт|инструкци|інструкці)|скрыт\\p{L}{0,4} инструкци|исходн\\p{L}{0,4} промпт)\\p{L}{0,3}'),
    scope: /предыдущ|прежн|предшествующ|вышеуказанн|вышеизложенн|выше|(?<!\p{L})(?:все|всё|всех|любые|свои|твои|ваши|старые|ранее|до этого|всі|усі|будь-які|свої|твої|ваші|раніше)(?!\p{L})|системн|исходн|изначальн|первоначальн|прошл|попередн|вихідн|початков/iu,
    system: /системн|исходн|изначальн|первоначальн|начальн|скрыт|внутренн|початков|вихідн|прихован/iu,
    mine: /(?<!\p{L})(?:мо[йиеёюя]\p{L}{0,2}|мо[їяєю]\p{L}{0,2})(?!\p{L})/iu,
    shared: /(?<!\p{L})(?:все|всё|всех|твои|ваши|всі|усі|твої|ваші)(?!\p{L})|системн/iu,
    described: /(?<!\p{L})(?:не|как|як|нельзя|заставил\p{L}{0,2}|убедил\p{L}{0,2}|попросил\p{L}{0,2}|велел\p{L}{0,2}|змусил\p{L}{0,2}|хакер\p{L}{0,3})(?!\p{L})/iu,
  };
}

function arabic(): Language {
  // imperative at a word start (optionally و/ف "and"); "بتجاهل" (by ignoring) and "يتجاهل" (ignores) are reports
  const verb = '[وف]?(?:تجاهل(?:ي|وا)?|انس(?:ى|ي|وا)?|أهمل(?:ي|وا)?|اهمل(?:ي|وا)?|تخط(?:ى|ي|وا)?|تجاوز(?:ي|وا)?|لا تتبع|لا تلتزم ب|لا تلتزمي ب|لا تطع)(?![\\p{L}\\p{M}])';
  const noun = '(?:تعليمات|تعليمة|إرشادات|ارشادات|أوامر|اوامر|قواعد|توجيهات|قيود|موجه)';
  const sys = '(?:موجه (?:ال)?نظام|تعليمات (?:ال)?نظام|رسالة (?:ال)?نظام|(?:التعليمات|الأوامر|الاوامر|الإرشادات|الارشادات|الموجه) (?:الأولية|الاولية|الأصلية|الاصلية|المخفية|الداخلية|الأساسية|الاساسية)|تعليماتك|موجهك|أوامرك|اوامرك|قواعدك)';
  const disclose = '[وف]?(?:اعرض|أعرض|أظهر|اظهر|اطبع|اكشف|أكشف|كرر|أخبرني ب|اخبرني ب|أعطني|اعطني|انسخ|أخرج|اخرج|شارك)(?![\\p{L}\\p{M}])';
  // the model named as the subject right after a past-tense verb: "تجاهل النموذج التعليمات"
  const subject = '(?:النموذج|الروبوت|روبوت|المساعد|الذكاء|البرنامج|المحادثة|الشات)';
  return {
    lang: 'ar',
    wordStart: true,
    gate: SCRIPT.ARABIC,
    override: [re(`${verb}(?![^${STOP}]{0,30}?${subject})[^${STOP}]{0,30}?${noun}`)],
    // a question names the model's own set-up ("what are your initial instructions"); "what is a system prompt" asks for a definition
    extract: [re(`${disclose} (?:لي |لنا )?(?:كامل |كل |جميع |نص )?${sys}`), re(`(?:ما هي|ما هو) (?:تعليماتك|موجهك|أوامرك|اوامرك|قواعدك|موجه نظامك|(?:موجه|تعليمات) (?:ال)?نظام (?:الخاص|الخاصة) بك)`)],
    setup: re('(?:موجه|تعليمات) (?:ال)?نظام (?:الخاص|الخاصة) بك|موجه نظامك'),
    scope: /السابق|سابقة|أعلاه|اعلاه|جميع|(?<![\p{L}\p{M}])كل(?![\p{L}\p{M}])|كافة|الأصلية|الاصلية|الأولية|الاولية|النظام|الماضية|(?:تعليمات|أوامر|اوامر|قواعد|إرشادات|ارشادات|توجيهات)ك/u,
    system: /النظام|نظامك|الأولية|الاولية|الأصلية|الاصلية|المخفية|الداخلية|الأساسية|الاساسية/u,
    mine: /(?:تعليمات|أوامر|اوامر|قواعد|إرشادات|ارشادات|توجيهات|طلبات|رسالت)ي(?![\p{L}\p{M}])/u,
    shared: /جميع|(?<![\p{L}\p{M}])كل(?![\p{L}\p{M}])|كافة|النظام|(?:تعليمات|أوامر|اوامر|قواعد)ك/u,
    described: /(?<![\p{L}\p{M}])(?:لا|لم|لن|كيف|جعل\p{L}{0,2}|أقنع\p{L}{0,2}|اقنع\p{L}{0,2}|دفع\p{L}{0,2}|طلب\p{L}{0,2}|قراصنة|المخترقون|مخترقون)(?![\p{L}\p{M}])/u,
  };
}

function hindi(): Language {
  const L = '[\\p{L}\\p{M}]';
  const verb = `(?:(?:अनदेखा|नज\\u093c?रअंदाज\\u093c?|उपेक्षा) (?:करें|करो|कीजिए|करिए|कर दो|कर दें|कर दीजिए)|भूल (?:जाओ|जाएं|जाएँ|जाइए)|(?:का )?पालन (?:न|मत) (?:करें|करो|कीजिए)|मत मानो|न मानें)(?!${L})`;
  const noun = `(?:निर्देश|आदेश|नियम|प्रॉम्प्ट|प्रोम्प्ट|हिदायत|दिशानिर्देश)${L}{0,4}`;
  const sys = `(?:सिस्टम (?:प्रॉम्प्ट|प्रोम्प्ट|संदेश|निर्देश)|(?:प्रारंभिक|मूल|छिपे हुए|छुपे हुए|आंतरिक|शुरुआती) (?:निर्देश|प्रॉम्प्ट|प्रोम्प्ट)|(?:अपने|अपना|अपनी|तुम्हारे|तुम्हारा|आपके|आपका) (?:निर्देश|सिस्टम प्रॉम्प्ट|सिस्टम प्रोम्प्ट|प्रॉम्प्ट))${L}{0,4}`;
  const disclose = `(?:दिखाओ|दिखाएं|दिखाएँ|दिखाइए|बताओ|बताएं|बताएँ|बताइए|(?:प्रिंट|प्रकट|साझा|उजागर) (?:करो|करें|कीजिए)|दोहराओ|दोहराएं|दोहराएँ)(?!${L})`;
  return {
    lang: 'hi',
    gate: SCRIPT.DEVANAGARI,
    override: [re(`${noun}(?: (?:को|का|की|के))?(?: (?:पूरी तरह से|पूरी तरह|बिल्कुल|भी))? ${verb}`)],
    extract: [re(`${sys}(?: को)?(?: (?:पूरा|हूबहू|शब्दशः|मुझे))? ${disclose}`)],
    setup: re('(?:तुम्हारा|तुम्हारे|आपका|आपके|तुम्हारी|आपकी) सिस्टम (?:प्रॉम्प्ट|प्रोम्प्ट|निर्देश)'),
    scope: /पिछले|पिछली|पिछला|पूर्व|सभी|सारे|सारी|तमाम|ऊपर|पहले|मूल|प्रारंभिक|सिस्टम|अपने|तुम्हारे|आपके/u,
    system: /सिस्टम|प्रारंभिक|मूल|छिपे|छुपे|आंतरिक|शुरुआती/u,
    mine: /मेरे|मेरी|मेरा|मैंने/u,
    shared: /सभी|सारे|सारी|तमाम|सिस्टम|तुम्हारे|आपके/u,
  };
}

function turkish(): Language {
  const verb = '(?:yok say|görmezden gel|gormezden gel|unut|göz ardı et|goz ardi et|dikkate alma|önemseme|onemseme|uymay)(?:ın|in|un|ün|yın|yin|ınız|iniz)?(?!\\p{L})';
  const noun = '(?:talimat|yönerge|yonerge|komut|kural|istem|prompt|emir|direktif|yönlendirme)\\p{L}{0,10}';
  const sys = '(?:sistem (?:istem|mesaj|talimat|prompt)|(?:ilk|orijinal|gizli|başlangıç|baslangic|dahili) (?:talimat|istem|prompt|yönerge|yonerge)|(?:senin|sana verilen) (?:talimat|istem|prompt|kural|yönerge|yonerge))\\p{L}{0,10}';
  const disclose = '(?:göster|goster|yazdır|yazdir|paylaş|paylas|söyle|soyle|tekrarla|listele|ifşa et|ifsa et|ver)(?:in|ın|iniz|ınız)?(?!\\p{L})';
  return {
    lang: 'tr',
    wordStart: true,
    gate: SCRIPT.LATIN_EXT,
    needle: /talimat|y[öo]nerge|istem|kural|komut/iu,
    override: [re(`${noun}(?: (?:tamamen|hepsini|tümünü|tumunu|artık|artik))? ${verb}`)],
    extract: [re(`${sys}(?: (?:aynen|tamamen|kelimesi kelimesine|bana))? ${disclose}`)],
    setup: re('senin sistem (?:istem|prompt)\\p{L}{0,6}'),
    scope: /önceki|onceki|yukarıdaki|yukaridaki|(?<!\p{L})(?:tüm|tum|bütün|butun|her|ilk|eski|senin)(?!\p{L})|sistem|orijinal|başlangıç|baslangic|mevcut|sana verilen|şimdiye kadar|simdiye kadar/iu,
    system: /sistem|(?<!\p{L})ilk(?!\p{L})|orijinal|gizli|başlangıç|baslangic|dahili/iu,
    mine: /(?<!\p{L})benim(?!\p{L})|talimatlar[ıi]m|isteğim|isteklerim|mesaj[ıi]m/iu,
    shared: /(?<!\p{L})(?:tüm|tum|bütün|butun|senin)(?!\p{L})|sistem/iu,
  };
}

export type ScriptPatterns = readonly Language[];

/** Compiled once per shield (boot). */
export function createScriptPatterns(): ScriptPatterns {
  return [chinese(), japanese(), korean(), russian(), arabic(), hindi(), turkish()];
}

const LETTER = /[\p{L}\p{M}]/u;

/** Whether offset `at` is inside a word (a letter or mark before it). */
function midWord(text: string, at: number): boolean {
  return at > 0 && LETTER.test(text[at - 1]!);
}

/** Start of the clause that holds `at`, looking back at most LOOK_BACK characters. */
function clauseStart(text: string, at: number): number {
  const first = Math.max(0, at - LOOK_BACK);
  for (let k = at - 1; k >= first; k--) if (CLAUSE.includes(text[k]!)) return k + 1;
  return first;
}

/**
 * Runs the patterns of the languages whose script `text` (the light view) holds. `emit` takes
 * light-view offsets [start, end).
 */
export function detectScripts(text: string, patterns: ScriptPatterns, emit: SpanEmit): void {
  const present = scriptsOf(text);
  if (present === 0) return;
  for (const p of patterns) {
    if ((present & p.gate) === 0 || (present & (p.without ?? 0)) !== 0 || (p.needle !== undefined && !p.needle.test(text))) continue;
    for (const r of p.override) {
      for (const m of text.matchAll(r)) {
        const s = m.index;
        if (p.wordStart === true && midWord(text, s)) continue;
        const e = s + m[0].length;
        const cs = clauseStart(text, s);
        const span = text.slice(cs, e);
        const scoped = p.scope.test(span);
        const mine = p.mine !== undefined && p.mine.test(span) && !(p.shared?.test(span) ?? false);
        const described = p.described?.test(text.slice(cs, s)) ?? false;
        const conf = (scoped ? 0.93 : 0.45) * (mine ? 0.4 : 1) * (described ? 0.5 : 1);
        emit('PROMPT_INJECTION_OVERRIDE', `override.script_${p.lang}`, conf, s, e);
      }
    }
    for (const r of p.extract) {
      for (const m of text.matchAll(r)) {
        const s = m.index;
        if (p.wordStart === true && midWord(text, s)) continue;
        const e = s + m[0].length;
        const cs = clauseStart(text, s);
        const described = p.described?.test(text.slice(cs, s)) ?? false;
        const conf = (p.system.test(m[0]) ? 0.9 : 0.7) * (described ? 0.5 : 1);
        emit('SYSTEM_PROMPT_EXTRACTION', `extraction.script_${p.lang}`, conf, s, e);
      }
    }
    if (p.setup === undefined) continue;
    for (const m of text.matchAll(p.setup)) if (!(p.wordStart === true && midWord(text, m.index))) emit('SYSTEM_PROMPT_EXTRACTION', `extraction.script_${p.lang}_own_setup`, 0.6, m.index, m.index + m[0].length);
  }
}
