/**
 * API-09 boilerplate of pasted e-mails and pages (boilerplate.ts) and acknowledgement-only turns
 * (dedupe.ts): table-driven, each rule with inputs that must change and look-alikes that must not.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compressText, LEVELS, type Level } from '../src/services/tokenslimmer/core.ts';
import { checkRetention } from '../src/services/tokenslimmer/retention.ts';
import { dropBoilerplate } from '../src/services/tokenslimmer/boilerplate.ts';

const BODY = 'The invoice for March is attached and the total is due on Friday.';
/** Ten alternating turns: the text reads as a transcript. */
const TRANSCRIPT = Array.from({ length: 5 }, (_, k) => `Ann: Point ${k} of the plan is open .\nBob: I will check point ${k} today .`).join('\n');

interface Case {
  readonly name: string;
  readonly input: string;
  /** Lines that must be gone from the output at `level` (and every level above it). */
  readonly gone?: readonly string[];
  /** Lines that must stay at `level`. */
  readonly kept?: readonly string[];
  readonly level: Level;
}

const CASES: readonly Case[] = [
  // mobile signatures
  { name: 'Sent from my iPhone', level: 'balanced', input: `${BODY}\n\nSent from my iPhone`, gone: ['Sent from my iPhone'] },
  { name: 'Get Outlook for Android', level: 'balanced', input: `${BODY}\n\nGet Outlook for Android`, gone: ['Get Outlook for Android'] },
  { name: 'quoted mobile signature', level: 'balanced', input: `On Mon, Ann wrote:\n> ${BODY}\n> Sent from my iPad`, gone: ['Sent from my iPad'] },
  { name: 'mobile line inside a sentence stays', level: 'aggressive', input: 'I sent from my iPhone the photos you asked for, all of them.', kept: ['I sent from my iPhone'] },
  {
    name: 'mobile signatures of six languages',
    level: 'balanced',
    input: ['Von meinem iPhone gesendet', 'Envoyé de mon iPhone', 'Enviado desde mi teléfono móvil', 'Inviato da iPhone', 'Enviado do meu iPhone', 'Verzonden vanaf mijn iPhone', 'Von Outlook für iOS gesendet'].map((sig) => `${BODY}\n\n${sig}`).join('\n\n---\n\n'),
    gone: ['Von meinem iPhone', 'Envoyé de mon', 'Enviado desde mi', 'Inviato da', 'Enviado do meu', 'Verzonden vanaf', 'Outlook für iOS'],
  },
  { name: 'a line that only looks like one stays', level: 'balanced', input: `${BODY}\n\nEnviado desde mi oficina\n\nVon meinem Wagen gesendet`, kept: ['Enviado desde mi oficina', 'Von meinem Wagen gesendet'] },
  { name: 'mobile line with a model number stays in balanced', level: 'balanced', input: `${BODY}\n\nSent from my Galaxy S21`, kept: ['Sent from my Galaxy S21'] },
  // salutations
  { name: 'greeting and closing lines', level: 'balanced', input: `Hi,\n\n${BODY}\n\nKind regards,\nAnn Lee`, gone: ['Hi,', 'Kind regards'], kept: ['Ann Lee'] },
  { name: 'greeting and closing lines in other languages', level: 'balanced', input: `Hallo zusammen,\n\n${BODY}\n\nMit freundlichen Grüßen\nJana Müller\n\nHola,\n\n${BODY}\n\nAtentamente,\nLuis\n\nCordialement,\nMarie`, gone: ['Hallo zusammen', 'Mit freundlichen', 'Hola', 'Atentamente', 'Cordialement'], kept: ['Jana Müller', 'Luis', 'Marie'] },
  { name: 'a greeting with a name stays in any language', level: 'balanced', input: `Hallo Anna,\n\n${BODY}\n\nMerci pour tout, Marie.`, kept: ['Hallo Anna,', 'Merci pour tout'] },
  { name: 'a greeting with a name stays', level: 'balanced', input: `Dear Ann,\n\n${BODY}`, kept: ['Dear Ann,'] },
  { name: 'thanks in a sentence stays', level: 'balanced', input: `${BODY}\nThanks for the quick reply on the budget.`, kept: ['for the quick reply on the budget'] },
  { name: 'closings stay in safe', level: 'safe', input: `Hi,\n\n${BODY}\n\nBest regards,\nAnn`, kept: ['Hi,', 'Best regards,'] },
  // disclaimers
  {
    name: 'confidentiality disclaimer',
    level: 'balanced',
    input: `${BODY}\n\nCONFIDENTIALITY NOTICE: This e-mail is intended solely for the addressee. If you are not the intended recipient, please notify the sender and delete it. Any dissemination is strictly prohibited.\n\nThanks, Ann`,
    gone: ['CONFIDENTIALITY NOTICE', 'intended recipient'],
    kept: ['Thanks, Ann'],
  },
  {
    name: 'one cue only is not a disclaimer',
    level: 'aggressive',
    input: `${BODY}\n\nThe parcel is intended only for the warehouse team, so leave it at the gate.`,
    kept: ['intended only for'],
  },
  {
    name: 'disclaimer with a phone number stays in balanced',
    level: 'balanced',
    input: `${BODY}\n\nIf you received this message in error, notify the sender at 555-0100; any copying is strictly prohibited.`,
    kept: ['555-0100', 'strictly prohibited'],
  },
  {
    name: 'a term stated inside a disclaimer stays (the notice goes)',
    level: 'aggressive',
    input: `${BODY}\n\nThis message is intended solely for the addressee. Quoted lead times are estimates and are not guaranteed. If you received this in error, please notify the sender and delete it.`,
    gone: ['intended solely', 'notify the sender'],
    kept: ['Quoted lead times'],
  },
  {
    name: 'a virus, views or registration sentence of a disclaimer goes with it',
    level: 'balanced',
    input: `${BODY}\n\nThis e-mail is intended solely for the addressee and any copying is strictly prohibited. Our company accepts no responsibility for any virus it may carry. Acme Widgets Limited is registered in England and Wales.`,
    gone: ['intended solely', 'any virus', 'registered in England'],
  },
  // mailing footers
  { name: 'To unsubscribe line', level: 'balanced', input: `${BODY}\n\nTo unsubscribe from this group and stop receiving emails from it, reply with STOP.`, gone: ['To unsubscribe'] },
  { name: 'you received this because', level: 'balanced', input: `${BODY}\n\nYou received this message because you are subscribed to the billing list.`, gone: ['You received this message'] },
  { name: 'unsubscribe in prose stays', level: 'aggressive', input: `Customers who unsubscribe are removed from the list within a day.`, kept: ['Customers who unsubscribe'] },
  { name: 'footer with a URL stays in balanced', level: 'balanced', input: `${BODY}\n\nTo unsubscribe visit https://example.com/u?id=1`, kept: ['https://example.com/u?id=1'] },
  { name: 'footer with a URL goes in aggressive', level: 'aggressive', input: `${BODY}\n\nTo unsubscribe visit https://example.com/u?id=1`, gone: ['To unsubscribe'] },
  {
    name: 'disclaimer with a phone number keeps only that sentence in balanced',
    level: 'balanced',
    input: `${BODY}\n\nThis e-mail is confidential and intended solely for the addressee. If you have received it in error, please notify us on 020 7946 0000 and delete it. Any dissemination is strictly prohibited.`,
    gone: ['intended solely', 'strictly prohibited'],
    kept: ['020 7946 0000'],
  },
  {
    name: 'a disclaimer line inside a paragraph leaves the other lines alone',
    level: 'balanced',
    input: `Ann Lee\nThe deadline is Friday and the room is booked.\nThis e-mail is confidential and intended solely for the addressee. Call 020 7946 0000. Any copying is strictly prohibited.\nSee you there`,
    gone: ['strictly prohibited'],
    kept: ['The deadline is Friday and the room is booked.', 'Call 020 7946 0000.', 'See you there'],
  },
  // a cue read across a line break ("in" | "error") before the first cue of the text's own lines
  { name: 'a disclaimer whose cue spans a line break, before any other cue', level: 'balanced', input: `${BODY}\n\nIf you received this message in\nerror, delete it.\n\nThe sender is Bob and the plan is fine.`, gone: ['delete it.'], kept: ['The sender is Bob'] },
  { name: 'a disclaimer said twice keeps its value once', level: 'balanced', input: `${BODY}\nThis e-mail is confidential and intended solely for the addressee. Call 020 7946 0000.\nThis e-mail is confidential and intended solely for the addressee. Call 020 7946 0000.`, gone: ['intended solely'], kept: ['Call 020 7946 0000.'] },
  { name: 'a quoted disclaimer keeps its sentence with a value', level: 'balanced', input: `On Mon, Ann wrote:\n> This e-mail is intended solely for the addressee. Call 020 7946 0000. Any copying is strictly prohibited.`, gone: ['strictly prohibited'], kept: ['Call 020 7946 0000.'] },
  { name: 'notification footer', level: 'balanced', input: `${BODY}\n\n—\nYou are receiving this because you are subscribed to this thread.\nReply to this email directly or view it on the tracker`, gone: ['You are receiving this', 'Reply to this email directly'] },
  { name: 'a footer naming GitHub stays in balanced (the name reads as an identifier)', level: 'balanced', input: `${BODY}\n\nReply to this email directly or view it on GitHub`, kept: ['view it on GitHub'] },
  { name: 'a footer naming GitHub goes in aggressive', level: 'aggressive', input: `${BODY}\n\nReply to this email directly or view it on GitHub`, gone: ['view it on GitHub'] },
  { name: 'reply directly in prose stays', level: 'aggressive', input: `Reply to this email directly and we will book the room.`, kept: ['Reply to this email directly and'] },
  // banners and notices
  { name: 'external-sender banner', level: 'balanced', input: `CAUTION: This email originated from outside of the organization. Do not click links or open attachments unless you recognize the sender.\n\n${BODY}`, gone: ['CAUTION'] },
  { name: 'bracketed external banner', level: 'balanced', input: `[EXTERNAL] This message came from outside your organization.\n\n${BODY}`, gone: ['[EXTERNAL]'] },
  { name: '"came from outside" in prose stays', level: 'aggressive', input: `This email came from outside sales and asks for a discount on the order.`, kept: ['outside sales'] },
  { name: 'footer link row', level: 'balanced', input: `${BODY}\n\nTerms and conditions | Unsubscribe | Privacy Policy`, gone: ['Terms and conditions'] },
  { name: 'social network row', level: 'balanced', input: `${BODY}\n\n**Facebook** **Twitter** **Instagram**`, gone: ['Facebook'] },
  { name: 'a row of social links goes in aggressive, read by its labels (YouTube and TikTok read as identifiers)', level: 'aggressive', input: `${BODY}\n\n[Facebook](https://www.facebook.com/museo) · [Instagram](https://www.instagram.com/museo) · [YouTube](https://www.youtube.com/@museomaritimocantabrico)\n[Pinterest](https://pinterest.com/loomvale) [TikTok](https://tiktok.com/@loomvale)`, gone: ['YouTube', 'TikTok', 'Facebook'] },
  { name: 'a row of social links stays in balanced (its URLs)', level: 'balanced', input: `${BODY}\n\n[Facebook](https://www.facebook.com/museo) · [YouTube](https://www.youtube.com/@museo)`, kept: ['[YouTube](https://www.youtube.com/@museo)'] },
  { name: 'a help desk\'s reply line goes', level: 'balanced', input: `##- Please type your reply above this line -##\n\n${BODY}`, gone: ['reply above this line'] },
  {
    name: 'a disclaimer said again keeps its sentence with a value once',
    level: 'balanced',
    input: `${BODY}\n\nThis e-mail is confidential and intended solely for the addressee. Valence Hydraulics SAS, capital 4 200 000 EUR, RCS Besancon 512 884 301. Any copying is strictly prohibited.\n\n${BODY.replace('March', 'May')}\n\nThis e-mail is confidential and intended solely for the addressee. Valence Hydraulics SAS, capital 4 200 000 EUR, RCS Besancon 512 884 301. Any copying is strictly prohibited.`,
    gone: ['strictly prohibited'],
    kept: ['RCS Besancon 512 884 301.'],
  },
  { name: 'a row of other labels stays', level: 'aggressive', input: `Terms | Price | Delivery`, kept: ['Terms | Price | Delivery'] },
  { name: 'social networks in a sentence stay', level: 'aggressive', input: `Facebook and Twitter both banned the account.`, kept: ['Facebook and Twitter both banned'] },
  { name: 'print notice', level: 'balanced', input: `${BODY}\n\nPlease consider the environment before printing this e-mail.`, gone: ['printing this e-mail'] },
  { name: 'a request to print stays', level: 'aggressive', input: `Please print this email and bring it to the front desk.`, kept: ['bring it to'] },
  { name: 'monitoring notice', level: 'balanced', input: `${BODY}\n\nPlease note that electronic mail may be monitored.`, gone: ['may be monitored'] },
  { name: 'monitoring with a date stays in balanced', level: 'balanced', input: `${BODY}\n\nE-mails will be monitored from 3 May by the new gateway.`, kept: ['3 May'] },
  { name: 'pleasantry lines', level: 'balanced', input: `Hope you are well.\n\n${BODY}\n\nHope this helps!\nAnn`, gone: ['Hope you are well', 'Hope this helps'], kept: ['Ann'] },
  { name: 'a pleasantry with content stays', level: 'aggressive', input: `${BODY}\nHope this helps the team decide by Friday.`, kept: ['Hope this helps'] },
  // page chrome
  { name: 'Share this article', level: 'balanced', input: `# Rates rise\n\n${BODY}\n\nShare this article\n\n${BODY.replace('March', 'April')}`, gone: ['Share this article'] },
  { name: 'Advertisement heading', level: 'balanced', input: `${BODY}\n\n### Advertisement\n\nMore text follows here for the reader.`, gone: ['Advertisement'] },
  { name: 'a Read more heading stays over the links balanced keeps (without it they read as the text\'s own)', level: 'balanced', input: `${BODY}\n\n**Read more:**\n\n- [Rates rise](https://example.com/a)`, kept: ['Read more', '- [Rates rise](https://example.com/a)'] },
  { name: 'More: over a link list', level: 'aggressive', input: `${BODY}\n\n#### More:\n\n- #### [Rates rise](https://example.com/a?utm_source=x)\n\nThe bank said so on Monday.`, gone: ['More:', 'Rates rise'], kept: ['said so on Monday.'] },
  { name: '"More" without a link list stays', level: 'aggressive', input: `## More\n\nThe bank also cut fees for students.`, kept: ['## More'] },
  { name: 'chrome words inside a sentence stay', level: 'aggressive', input: `Read more about the fees below; share this article with your team.`, kept: ['Read more about', 'share this article with'] },
  { name: 'a README section "Related projects" stays', level: 'aggressive', input: `## Related projects\n\nSee the docs folder for the list.`, kept: ['## Related projects'] },
  { name: 'image-only line in aggressive', level: 'aggressive', input: `${BODY}\n\n![](https://example.com/a.jpg)\n\nText.`, gone: ['![](https://example.com/a.jpg)'] },
  { name: 'image-only line stays in balanced', level: 'balanced', input: `${BODY}\n\n![](https://example.com/a.jpg)`, kept: ['![](https://example.com/a.jpg)'] },
  // a page pasted as text: menu blocks, share buttons, cookie banner
  {
    name: 'menu, share buttons, footer menu and cookie banner of a pasted page',
    level: 'balanced',
    input: `Skip to main content\nHome\nAbout us\nServices\nBlog\nLog in\n\n${BODY}\n\nShare this article\nFacebook\nTwitter\nLinkedIn\nEmail\n\n${BODY.replace('March', 'April')}\n\nAbout\nCareers\nPrivacy Policy\nTerms of Use\nWe use cookies to improve your experience on our site.\nAccept all\nManage preferences`,
    gone: ['Home', 'About us', 'Log in', 'Facebook', 'Careers', 'Privacy Policy', 'We use cookies', 'Accept all', 'Manage preferences'],
    kept: [BODY, 'April', 'LinkedIn'], // an identifier by its capitals: balanced keeps it
  },
  { name: 'share buttons in aggressive', level: 'aggressive', input: `${BODY}\n\nFacebook\nTwitter\nLinkedIn\nEmail\n\nMore text.`, gone: ['Facebook', 'LinkedIn'] },
  {
    name: 'one menu run alone before a closing question stays (the question may be about it)',
    level: 'balanced',
    input: `The page shows these elements.\n\nVisible buttons\nLog in\nSign up\nSearch\nHelp\n\nWhich button creates an account?`,
    kept: ['Log in', 'Sign up', 'Search', 'Help'],
  },
  {
    name: 'the same run goes with other page chrome or without a closing question',
    level: 'balanced',
    input: `Share this article\n\nLog in\nSign up\nSearch\nHelp\n\n${BODY}\n\nWhat is due on Friday?\n\n---\n\nLog in\nSign up\nSearch\nHelp\n\n${BODY}`,
    gone: ['Log in', 'Sign up', 'Help'],
  },
  { name: 'a menu under a label stays', level: 'aggressive', input: `Our site menu:\nHome\nAbout us\nBlog\nContact\n\nWhat should we rename?`, kept: ['Home', 'About us', 'Blog', 'Contact'] },
  { name: 'social networks under a question stay', level: 'aggressive', input: 'Which of these are owned by Meta?\nFacebook\nInstagram\nWhatsApp\nLinkedIn', kept: ['Facebook', 'LinkedIn'] },
  { name: 'a Markdown list of menu words stays', level: 'balanced', input: `${BODY}\n\n- Home\n- Blog\n- Contact`, kept: ['- Home', '- Blog', '- Contact'] },
  {
    name: "a site's own sections between menu labels go with them",
    level: 'balanced',
    input: `${BODY}\n\nSite Index\nGo to Home Page »\nnews\nworld\nU.S.\npolitics\nElection 2020\nbusiness\n\nMore text follows here.`,
    gone: ['Site Index', 'news', 'world', 'politics', 'business'],
    kept: ['Election 2020', 'More text follows here.'],
  },
  {
    name: 'a chrome line a line rule dropped still counts in the menu run beside it; an ingredient list under it stays',
    level: 'balanced',
    input: `Skip to content\nRooms\nDining\nWeddings\nBook now\n\n${BODY}\n\nSkip to content\nFlour\nSugar\nButter`,
    gone: ['Rooms', 'Dining', 'Weddings', 'Book now', 'Skip to content'],
    kept: [BODY, 'Flour\nSugar\nButter'],
  },
  {
    name: "a web mail view's buttons are no page: the signature under them and a run under 'Related' stay",
    level: 'balanced',
    input: `${BODY}\n\nReply\nForward\nAnn Lee\nSales Director\nAcme\n\nRelated\nThe budget for the spring launch\nThe hiring plan for the new office`,
    gone: ['Reply', 'Forward'],
    kept: ['Ann Lee\nSales Director\nAcme', 'Related\nThe budget for the spring launch\nThe hiring plan'],
  },
  { name: 'a list of short lines without menu labels stays (ingredients)', level: 'aggressive', input: `${BODY}\n\nFlour\nSugar\nTwo eggs\nButter\nSearch the pantry first`, kept: ['Flour', 'Sugar', 'Butter'] },
  { name: 'two menu words stay', level: 'balanced', input: `${BODY}\n\nLog in\nSign up`, kept: ['Log in', 'Sign up'] },
  { name: 'short sentences beside two menu words are no menu', level: 'balanced', input: `Text.\nHome\nPrivacy Policy\nCall 020 7946 0000.`, kept: ['Text.', 'Home', 'Privacy Policy', 'Call 020 7946 0000.'] },
  // related-story runs of a pasted page (dropHeadlineRuns)
  {
    name: 'a related-stories run of a pasted page goes with its heading',
    level: 'balanced',
    input: `Share this article\n\n${BODY}\n\nRelated Stories\n\nHarbor residents form a coalition against rezoning\nWhat the waterfront plan would change, street by street\n\nThe vote moves to next month.`,
    gone: ['Related Stories', 'Harbor residents form', 'street by street'],
    kept: [BODY, 'The vote moves to next month.'],
  },
  {
    name: 'a headline with a number stays in balanced, under its heading; "Headlines:" is the user\'s',
    level: 'balanced',
    input: `Tweet\nShare\nComment\n\n${BODY}\n\nMore on Slate Book Review\nHow to turn a bureaucracy into a justice system\nThe 50 best nonfiction books of the past 25 years\nA memoir that refuses to tidy up its feelings\n\nHeadlines:\nCouncil delays vote on the housing plan\nFerry service to resume on weekends`,
    gone: ['How to turn', 'A memoir that'],
    kept: ['More on Slate Book Review\nThe 50 best nonfiction books', 'Headlines:', 'Council delays vote', 'Ferry service to resume'],
  },
  {
    name: 'a related run of linked headlines under a linked heading goes whole in aggressive',
    level: 'aggressive',
    input: `Tweet\nShare\nComment\n\n${BODY}\n\n# More on [Book Review](/tag/book-review)\n\n1. [How to turn a bureaucracy into a justice system](https://example.com/a)\n2. [The 50 best nonfiction books of the past 25 years](https://example.com/b)\n\nThe end of the text is here.`,
    gone: ['More on', 'How to turn', 'The 50 best'],
    kept: ['End of text here.'],
  },
  {
    name: 'linked headlines under a linked related heading stay in balanced, heading and all (their links are values)',
    level: 'balanced',
    input: `Tweet\nShare\nComment\n\n${BODY}\n\n# More on [Book Review](/tag/book-review)\n\n1. [How to turn a bureaucracy into a justice system](https://example.com/a)\n2. [The 50 best nonfiction books of the past 25 years](https://example.com/b)`,
    kept: ['# More on [Book Review](/tag/book-review)', '[How to turn a bureaucracy', '[The 50 best'],
  },
  {
    name: 'a related-stories box pasted alone stays: its heading is no sign of a page',
    level: 'balanced',
    input: `Most read\nCouncil approves the new bridge plan\nLocal team wins the cup final\n\nSummarize the second story.`,
    kept: ['Council approves the new bridge plan', 'Local team wins the cup final', 'Summarize the second story.'],
  },
  { name: 'a related run with a number goes whole in aggressive', level: 'aggressive', input: `Share this article\n\n${BODY}\n\nMost read\nThe 50 best nonfiction books of the year\nFerry service to resume on weekends\n\nThe end of the text is here.`, gone: ['The 50 best', 'Ferry service'] },
  {
    name: '"Recommended" over advice and a run broken by a sentence stay',
    level: 'balanced',
    input: `Share this article\n\nRecommended\nDrink plenty of fluids all day\nRest in bed for a few days\n\nRelated\nWhy the clinic changed its hours\nThe clinic now opens at noon on Mondays.\n\nYou might also like\nFive ways to sleep better tonight\nWhat doctors say about cold showers`,
    gone: ['You might also like', 'Five ways to sleep', 'cold showers'],
    kept: ['Recommended', 'Drink plenty of fluids', 'Rest in bed', 'Why the clinic changed its hours', 'opens at noon'],
  },
  // a menu said twice: one item per line and joined on one line (dropJoinedMenus)
  {
    name: 'a menu repeated on one line goes with its run',
    level: 'balanced',
    input: `Impeachment\nBill Barr\nKaepernick\nNews & Politics\nCulture\nMenu\n\nImpeachment Bill Barr Kaepernick News & Politics Culture Search\n\n${BODY}`,
    gone: ['Impeachment', 'Bill Barr', 'Culture', 'Menu', 'Search'],
    kept: [BODY],
  },
  {
    name: 'the joined copy of a dropped menu goes; a poem line joining its short lines stays',
    level: 'balanced',
    input: `Home\nAbout\nTrips\nGear\nContact\nHome About Trips Gear Contact\n\n${BODY}\n\nRoses\nViolets\nDaisies\nTulips\nLilies\nRoses violets daisies tulips lilies\n\nOur menu:\nBlog\nPress\nJobs\nEvents\nBlog Press Jobs Events Search`,
    gone: ['Home About Trips'],
    kept: [BODY, 'Roses\nViolets\nDaisies\nTulips\nLilies\nRoses violets daisies tulips lilies', 'Our menu:\nBlog\nPress\nJobs\nEvents\nBlog Press Jobs Events Search'],
  },
  // comment forms, recipe cards and the chrome of pages in other languages (tables)
  {
    name: "a blog's comment form goes; a sentence about published addresses stays",
    level: 'balanced',
    input: `${BODY}\n\nLeave a Reply\nYour email address will not be published. Required fields are marked *\nSave my name, email, and website in this browser for the next time I comment.\nPost Comment\n\nYour email address will not be published in the directory, only your name.`,
    gone: ['Leave a Reply', 'Required fields', 'Save my name', 'Post Comment'],
    kept: [BODY, 'Your email address will not be published in the directory, only your name.'],
  },
  { name: 'recipe card buttons', level: 'balanced', input: `Jump to Recipe\nPrint Recipe\n\nThese pancakes are light and fluffy.`, gone: ['Jump to Recipe', 'Print Recipe'], kept: ['These pancakes'] },
  {
    name: 'menu, ad label and footer of a German page; "Anzeige" in a sentence stays',
    level: 'balanced',
    input: `Zum Inhalt springen\nStartseite\nPolitik\nSuche\nAnmelden\n\nDie Anzeige bei der Polizei wurde am Montag erstattet.\n\nAnzeige\n\nImpressum\nDatenschutz\nKontakt`,
    gone: ['Zum Inhalt', 'Startseite', 'Politik', 'Suche', 'Anzeige\n', 'Impressum', 'Datenschutz'],
    kept: ['Die Anzeige bei der Polizei wurde am Montag erstattet.'],
  },
  // forms of a pasted page (dropSignupForms)
  {
    name: 'a newsletter sign-up box goes; a box under a question and a heading without fields stay',
    level: 'balanced',
    input: `${BODY}\n\nSign up for our newsletter\nGet the top local stories delivered to your inbox.\nEnter your email address\nSign Up\nBy signing up, you agree to our Terms of Service and Privacy Policy.\n\nHow can I make my sign-up box better?\nStay in the loop\nGet tips from our team every week.\nSubscribe\n\nNewsletter\nOur newsletter goes out on Fridays to all staff.`,
    gone: ['Sign up for our newsletter', 'delivered to your inbox', 'Enter your email', 'By signing up'],
    kept: [BODY, 'Stay in the loop\nGet tips from our team every week.\nSubscribe', 'Newsletter\nOur newsletter goes out on Fridays to all staff.'],
  },
  {
    name: 'a "Newsletter" section of a document stays (no e-mail field); a box with one goes',
    level: 'balanced',
    input: `## Newsletter\nWe send one per month.\nSubscribe\n\nNewsletter\nOur tips every Friday.\nEmail address\nSubscribe\n\nHow do I subscribe?`,
    gone: ['Our tips every Friday.', 'Email address'],
    kept: ['## Newsletter\nWe send one per month.\nSubscribe', 'How do I subscribe?'],
  },
  {
    name: "a docs page's feedback widget goes; a yes/no question of the user stays",
    level: 'balanced',
    input: `${BODY}\n\nWas this page helpful?\nYes\nNo\n\nDid you enjoy the course?\nYes\nNo`,
    gone: ['Was this page helpful?'],
    kept: [BODY, 'Did you enjoy the course?\nYes\nNo'],
  },
  // a site index under its heading (dropSiteIndex)
  {
    name: "a footer's 'Quick Links' index goes across its blank lines; a label with a value stays",
    level: 'balanced',
    input: `Skip to content\n\n${BODY}\n\nQuick Links\nRooms & Suites\nRestaurant\n\nGuest Information\nGetting here\nU.S.\nElection 2020\n\nCan I bring my dog?`,
    gone: ['Quick Links', 'Rooms & Suites', 'Restaurant', 'Guest Information', 'Getting here'],
    kept: [BODY, 'U.S.', 'Election 2020', 'Can I bring my dog?'],
  },
  {
    name: "a site map the user asks about, 'Quick links:' and a short index stay",
    level: 'balanced',
    input: `Skip to content\n\n${BODY}\n\nWhat is missing from our site map?\nSite Map\nRooms\nRestaurant\nSpa\n\nQuick links:\nRooms\nRestaurant\nSpa\n\nSitemap\nRooms\nSpa\nThe spa opens at nine on weekdays.\n\nSite Index\nRooms\nRestaurant\nSpa`,
    gone: ['Site Index'],
    kept: ['Site Map\nRooms\nRestaurant\nSpa', 'Quick links:\nRooms\nRestaurant\nSpa', 'Sitemap\nRooms\nSpa\nThe spa opens'],
  },
  // what is left of a page's chrome (dropPageLeftovers)
  {
    name: "a docs page's pager and its 'On this page' list of headings said again go",
    level: 'balanced',
    input: `Skip to content\n\nSetting the timeout\n${BODY}\n\nRetries\nFailed requests are retried twice.\n\nPrevious\nInstallation\nNext\nAuthentication\n\nOn this page\nSetting the timeout\nRetries`,
    gone: ['Previous', 'Installation', 'Authentication', 'On this page'],
    kept: ['Setting the timeout\n' + BODY, 'Retries\nFailed requests'],
  },
  {
    name: "a 'Next' without 'Previous' and an 'On this page' list with an item said nowhere else stay",
    level: 'balanced',
    input: `Skip to content\n\n${BODY}\n\nNext\nWe deploy the fix on Monday\n\nOn this page\nOverview\nPricing tiers\n\nOverview\nThe plan has three tiers.\n\nPrevious\nInstallation\nNext\nAuthentication`,
    gone: ['Installation', 'Authentication'],
    kept: ['Next\nWe deploy the fix on Monday', 'On this page\nOverview\nPricing tiers'],
  },
  {
    name: 'a label left beside dropped chrome goes; a sentence beside it stays',
    level: 'balanced',
    input: `${BODY}\n\nComments\nLeave a comment\n\nShare this article\nThe council met again on Monday evening.`,
    gone: ['Comments', 'Leave a comment', 'Share this article'],
    kept: [BODY, 'The council met again on Monday evening.'],
  },
  {
    name: 'a cookie banner whose notice is a short heading, with its explanation and named buttons',
    level: 'balanced',
    input: `This website uses cookies\nWe use necessary cookies to make our site work and analytics cookies to improve it.\nAccept recommended cookies\nReject optional cookies\n\n${BODY}`,
    gone: ['uses cookies', 'necessary cookies', 'Accept recommended', 'Reject optional'],
    kept: [BODY],
  },
  {
    name: 'a cookie notice with a link keeps in balanced only its sentence with the link; its buttons written as links to # go',
    level: 'balanced',
    input: `We use cookies to personalise content and ads and to analyse our traffic. We also share information about your use of our site with our partners. [Cookie policy](https://www.example.co.uk/cookies/)\n\n[Accept all](#) [Reject all](#) [Manage preferences](#)\n\n${BODY}`,
    gone: ['We use cookies', 'share information', 'Accept all', 'Manage preferences'],
    kept: ['[Cookie policy](https://www.example.co.uk/cookies/)'],
  },
  {
    name: 'a GOV.UK-style banner: its heading naming the site, over a blank line, its notice and its buttons',
    level: 'aggressive',
    input: `## Cookies on the Marlowe Borough Council website\n\nWe'd like to set additional cookies to understand how you use our website so we can improve our services.\n\n[Accept additional cookies](#) [Reject additional cookies](#) [View cookies](https://www.marlowe.example/cookies)\n\n${BODY}`,
    gone: ['Cookies on the Marlowe', 'additional cookies', 'View cookies'],
  },
  {
    name: 'a German banner of "we and our partners", under its heading',
    level: 'balanced',
    input: `## Wir respektieren Ihre Privatsphäre\n\nWir und unsere Partner verwenden Cookies und ähnliche Technologien, um Informationen auf Ihrem Gerät zu speichern. Mit Ihrer Zustimmung verarbeiten wir personenbezogene Daten für personalisierte Anzeigen.\n\n${BODY}`,
    gone: ['Wir respektieren', 'Partner verwenden Cookies'],
  },
  {
    name: 'a newsletter box of a page in Markdown (its lines set apart by blank lines, under a heading of its own words), not the text after it',
    level: 'balanced',
    input: `${BODY}\n\n## Get the Gazette's morning briefing\n\nSign up to receive our daily newsletter with the top stories from the valley.\n\nEmail address\n\n[Sign up](#)\n\nThe works start in October, the council said.`,
    gone: ['morning briefing', 'daily newsletter', 'Email address', 'Sign up'],
    kept: ['The works start in October, the council said.'],
  },
  { name: 'a row of other links to # stays', level: 'aggressive', input: `We use cookies to improve your experience on our site.\n\n[Accept all](#) [Download the report](#)\n\n${BODY}`, kept: ['Accept all', 'Download'] },
  { name: 'cookies of a recipe stay', level: 'balanced', input: 'Recipe notes: we use cookies from the bakery on the corner for the base.\nHow many cookies do I need?', kept: ['we use cookies from the bakery'] },
  { name: 'an answer "Accept" not under a cookie notice stays', level: 'balanced', input: 'Do you take the offer?\n\nAccept', kept: ['Accept'] },
  { name: 'a sentence about cookies stays', level: 'balanced', input: 'We use cookies from the bakery on Elm Street for the party.', kept: ['We use cookies from the bakery'] },
  // separators and quote markers
  { name: 'underscore rule above a forwarded header', level: 'balanced', input: `Looks good.\n________________________________\nFrom: Ann Lee\nSubject: Budget`, gone: ['___'], kept: ['From: Ann Lee'] },
  { name: 'dash rule stays (may underline a heading)', level: 'aggressive', input: `Budget\n------\n\nThe budget is final.`, kept: ['---'] },
  {
    name: 'quote markers under "wrote:"',
    level: 'balanced',
    input: `Agreed.\n\nOn Fri, Apr 3, 2020 at 12:32 PM Ann <ann@example.com> wrote:\n\n> The launch moves to May 4.\n>\n>> Can we launch in April?`,
    gone: ['> The launch', '>> Can we'],
    kept: ['The launch moves to May 4.', 'Can we launch in April?', 'On Fri, Apr 3, 2020 at 12:32 PM Ann <ann@example.com> wrote:'],
  },
  {
    name: 'quote markers of questions answered inline stay',
    level: 'balanced',
    input: `Answers below.\n\nOn Tue, Jan 14, 2025, Owen <owen@example.com> wrote:\n> 1. Do you want to keep the current logo?\nYES, KEEP IT.\n> 2. Should the form ask for insurance details?\nNO.`,
    kept: ['> 1. Do you want', '> 2. Should the form'],
  },
  {
    name: 'quote markers under "wrote:" go when the next quote belongs to another message',
    level: 'balanced',
    input: `--- E-mail 1 ---\nAgreed.\n\nOn Fri, Ann <ann@example.com> wrote:\n\n> The launch moves to May 4.\n\n--- E-mail 2 ---\nHi,\n\n2017-12-22 10:35 Ben <ben@example.com>:\n\n> Ruby is great.\n\nDo you agree?`,
    gone: ['> The launch'],
  },
  {
    name: 'a reply under the quote keeps the quote markers (it would read as the quoted writer\'s)',
    level: 'balanced',
    input: `On Fri, Ann <ann@example.com> wrote:\n> Can you do Friday at 10?\n\nYes, Friday works for me, but not before 11.\n\nBob`,
    kept: ['> Can you do Friday at 10?', '\nYes, Friday works'],
  },
  {
    name: 'nested quotes that each close their message lose their markers level by level, each under its attribution',
    level: 'balanced',
    input: `Agreed, let us ship it.\n\nOn Fri, Ann <ann@example.com> wrote:\n> The launch moves to May 4.\n>\n> On Thu, Ben <ben@example.com> wrote:\n>> Can the launch move to May 4?`,
    kept: ['Ann <ann@example.com> wrote:\nThe launch moves to May 4.', 'Ben <ben@example.com> wrote:\nCan the launch move to May 4?'],
  },
  {
    name: 'a quote within a quote that the outer writer answers under keeps its markers',
    level: 'balanced',
    input: `Agreed, let us ship it.\n\nOn Fri, Ann <ann@example.com> wrote:\n> On Thu, Ben <ben@example.com> wrote:\n>> Can the launch move to May 4?\n>\n> Yes, it moves to May 4.`,
    kept: ['Ben <ben@example.com> wrote:\n> Can the launch move to May 4?\n\nYes, it moves to May 4.'],
  },
  {
    name: 'code quoted in a reply keeps its indentation in every level',
    level: 'safe',
    input: `That fixed it.\n\nOn Tue, Ingrid <i@example.com> wrote:\n> Try this:\n>\n>     for m in meshes:\n>         if not m.is_manifold():\n>             m.repair()\n>     print(len(meshes))`,
    kept: ['>     for m in meshes:\n>         if not m.is_manifold():\n>             m.repair()\n>     print(len(meshes))'],
  },
  {
    name: 'code quoted in a reply keeps its indentation where the markers go',
    level: 'balanced',
    input: `That fixed it.\n\nOn Tue, Ingrid <i@example.com> wrote:\n> Try this:\n>\n>     for m in meshes:\n>         if not m.is_manifold():\n>             m.repair()\n>     print(len(meshes))`,
    kept: ['    for m in meshes:\n        if not m.is_manifold():\n            m.repair()\n    print(len(meshes))'],
  },
  {
    name: 'a notice under a quoted message goes without the message (a `>` line parts the quote\'s paragraphs)',
    level: 'aggressive',
    input: `Approved.\n\nOn Wed, Lucas <lucas@example.com> wrote:\n> Requesting approval for a partial refund on order CV-118873.\n>\n> Order total was $412.75, shipping $27.45.\n>\n> This email and any files transmitted with it are confidential and intended solely for the use of the individual or entity to whom they are addressed. If you have received this email in error please notify the sender.`,
    kept: ['Order total was $412.75', 'order CV-118873'],
    gone: ['intended solely'],
  },
  {
    name: "a contents list inside a browser's run of chrome lines goes, its 'Overview' entry with it, up to the headline",
    level: 'balanced',
    input: `Skip to content\nSearch docs\nGitHub\nCaching\nOn this page\nOverview\nEnabling the cache\nCache backends\nTroubleshooting\nCaching\n\nQuarry can cache query results for GET routes.\n\nEnabling the cache\nAdd a cache section to the file.\n\nCache backends\nMemory and Redis are supported.\n\nTroubleshooting\nClear the cache after a schema change.\n\nWhich backends are supported?`,
    gone: ['On this page', 'Overview'],
    kept: ['Enabling the cache\nAdd a cache section', 'Cache backends\nMemory', 'Troubleshooting\nClear'],
  },
  {
    name: "a wiki page's skip link, tools and the edit links of its headings go",
    level: 'balanced',
    input: `Jump to content\nMain menu\nSearch\nDonate\nLog in\n\nLake Veridian is a reservoir in Montana, created in 1958 by Veridian Dam.\n\nHistory[edit]\nThe dam was finished in 1958 and the town of Old Caldwell was flooded.\n\nGeschichte [Bearbeiten | Quelltext bearbeiten]\nDer Damm wurde 1958 fertig.\n\nWhen was the dam finished?`,
    gone: ['Jump to content', 'Main menu', '[edit]', 'Bearbeiten'],
    kept: ['History\nThe dam', 'Geschichte\nDer Damm'],
  },
  {
    name: 'an [edit] that is the whole line, or inside a sentence, stays',
    level: 'balanced',
    input: `Press [edit]\n\nThe button labelled [edit] opens the form.\n[edit]\nThe form opens.`,
    kept: ['Press [edit]', 'labelled [edit] opens', '[edit]\nThe form'],
  },
  { name: 'a Markdown blockquote stays quoted', level: 'aggressive', input: `The author puts it well:\n\n> Simple things should be simple.`, kept: ['> Simple things should be simple.'] },
  // tracking parameters
  { name: 'utm parameters in aggressive', level: 'aggressive', input: `See https://example.com/p?id=7&utm_source=news&utm_medium=mail&fbclid=abc for details.`, gone: ['utm_source', 'fbclid'], kept: ['https://example.com/p?id=7 '] },
  { name: 'utm parameters stay in balanced', level: 'balanced', input: `See https://example.com/p?id=7&utm_source=news for details.`, kept: ['https://example.com/p?id=7&utm_source=news'] },
  // link targets
  { name: 'inline link targets go in aggressive, their text stays', level: 'aggressive', input: `NASA picked [Blue Origin](https://example.com/news/blue-origin "Blue") and [SpaceX](https://example.com/spacex) for the lander.`, gone: ['https://example.com'], kept: ['Blue Origin', 'SpaceX'] },
  { name: 'an icon link with no text goes in aggressive', level: 'aggressive', input: `${BODY}\n\n* [](https://www.facebook.com/share?u=1)\n* [](https://twitter.com/intent/tweet?u=1)`, gone: ['facebook.com', 'twitter.com'] },
  { name: 'inline link targets stay in balanced', level: 'balanced', input: `NASA picked [Blue Origin](https://example.com/news/blue-origin) for the lander.`, kept: ['[Blue Origin](https://example.com/news/blue-origin)'] },
  { name: 'a link in a table row stays in aggressive', level: 'aggressive', input: `| Name | Repo |\n|---|---|\n| undici | [nodejs/undici](https://github.com/nodejs/undici) |`, kept: ['(https://github.com/nodejs/undici)'] },
  { name: 'a link in a code span stays in aggressive', level: 'aggressive', input: 'Write `[docs](https://example.com/docs)` in the README file.', kept: ['[docs](https://example.com/docs)'] },
  { name: 'a retrieval header that looks like a link stays', level: 'aggressive', input: '[7](Insulin) It goes into the bloodstream and the liver.', kept: ['[7](Insulin)'] },
  // code is never touched
  { name: 'chrome inside a fence stays', level: 'aggressive', input: '```\nShare this article\nSent from my iPhone\n```', kept: ['Share this article', 'Sent from my iPhone'] },
  // acknowledgement-only turns
  { name: 'backchannel turn goes', level: 'balanced', input: `Ann: The launch moves to May.\nBob: Mm-hmm .\nAnn: Marketing needs the date.`, gone: ['Bob'] },
  { name: 'yeah after a question stays in balanced', level: 'balanced', input: `Ann: Is the budget approved ?\nBob: Yeah .\nAnn: Good, then we start.`, kept: ['Bob: Yeah'] },
  { name: 'yeah after a question stays in aggressive too: it is the answer', level: 'aggressive', input: `Ann: Is the budget approved ?\nBob: Yeah .\nAnn: Good, then we start.`, kept: ['Bob: Yeah'] },
  { name: 'yeah after a statement goes in aggressive', level: 'aggressive', input: `Ann: The budget is approved .\nBob: Yeah .\nAnn: Good, then we start.`, gone: ['Bob'] },
  { name: 'an answering yeah that opens a turn stays in aggressive', level: 'aggressive', input: `Ann: Is the budget approved ?\nBob: Yeah . We start Monday .`, kept: ['Bob: Yeah . We start Monday'] },
  { name: 'a turn with content stays', level: 'balanced', input: `Ann: The launch moves to May.\nBob: Yeah, that works for sales.`, kept: ['that works for sales'] },
  { name: 'acknowledgement sentence inside a turn goes in aggressive', level: 'aggressive', input: `Ann: Okay . Yep , yep . The launch moves to May .\nBob: Fine by me . Okay .`, gone: ['Okay', 'Yep'], kept: ['Launch moves to May', 'Fine by me .'] },
  { name: 'acknowledgement sentence stays in balanced', level: 'balanced', input: `Ann: Okay . The launch moves to May .`, kept: ['Okay . The launch'] },
  { name: 'acknowledgement words with content stay', level: 'aggressive', input: `Ann: Right , both of them , okay .\nBob: Okay tell me the dates .`, kept: ['both of them', 'tell me'] },
  { name: 'acknowledgement sentence outside a transcript stays', level: 'aggressive', input: `He read the note aloud. Okay. Then he signed it.`, kept: ['Okay.'] },
  { name: 'a turn trailing off after a conjunction goes', level: 'balanced', input: `Ann: The launch moves to May.\nBob: but ,\nAnn: Marketing needs the date.`, gone: ['Bob'] },
  { name: 'a turn that asks "And ?" stays in balanced', level: 'balanced', input: `Ann: The launch moves to May.\nBob: And ?\nAnn: Marketing needs the date.`, kept: ['Bob: And ?'] },
  { name: 'a conjunction opening content stays', level: 'balanced', input: `Ann: The launch moves to May.\nBob: But sales wants April .`, kept: ['Bob: But sales wants April'] },
  { name: 'an answer word stays', level: 'balanced', input: `Ann: The launch moves to May.\nBob: No .`, kept: ['Bob: No'] },
  // spoken fillers and hedges (aggressive, transcripts)
  { name: '"you know ," inside a turn goes in aggressive', level: 'aggressive', input: `${TRANSCRIPT}\nAnn: It should be cheap but you know , not flimsy .`, gone: ['you know'], kept: ['not flimsy'] },
  { name: '"do you know ," stays', level: 'aggressive', input: `${TRANSCRIPT}\nAnn: Do you know , roughly , the price ?`, kept: ['you know'] },
  { name: '"you know ," stays in balanced mid-clause', level: 'balanced', input: `${TRANSCRIPT}\nAnn: It should be cheap but you know , not flimsy .`, kept: ['you know'] },
  { name: 'hedge "sort of" goes in aggressive', level: 'aggressive', input: `${TRANSCRIPT}\nAnn: Then it sort of changed into a pelican .`, gone: ['sort of'], kept: ['changed into'] },
  { name: '"a kind of dog" stays', level: 'aggressive', input: `${TRANSCRIPT}\nAnn: It is a kind of dog ?\nBob: What sort of remote ?`, kept: ['kind of dog', 'What sort of remote'] },
  { name: 'hedges outside a transcript stay', level: 'aggressive', input: `The layer sort of acts as a filter, you know, for light.`, kept: ['sort of acts'] },
  // consecutive turns of one speaker
  {
    name: 'consecutive turns of one speaker join in a transcript',
    level: 'balanced',
    input: `${TRANSCRIPT}\nAnn: We start at nine .\nAnn: Then the budget .\nBob: Fine .`,
    gone: ['nine .\nAnn:'],
    kept: ['Ann: We start at nine . Then the budget .', 'Bob: Fine .'],
  },
  { name: 'turns join in aggressive too, after a dropped backchannel', level: 'aggressive', input: `${TRANSCRIPT}\nAnn: We start at nine .\nBob: Mm-hmm .\nAnn: Then the budget .`, kept: ['nine . Then'] },
  { name: 'turns stay apart in safe', level: 'safe', input: `${TRANSCRIPT}\nAnn: We start at nine .\nAnn: Then the budget .`, kept: ['nine .\nAnn: Then'] },
  { name: 'a short dialogue keeps its lines', level: 'aggressive', input: `Ann: We start at nine .\nAnn: Then the budget .\nBob: Fine .`, kept: ['nine .\nAnn: Then'] },
  { name: 'few-shot answers keep their lines', level: 'aggressive', input: Array.from({ length: 6 }, (_, k) => `Q: What is ${k} plus ${k}?\nA: Let's add.\nA: So the answer is ${2 * k}.`).join('\n'), kept: ['add.\nA: So the answer is 10.'] },
  { name: 'repeated labels of notes keep their lines', level: 'aggressive', input: Array.from({ length: 12 }, (_, k) => `Note ${k}: item ${k} ships soon.\nNote ${k}: item ${k} is paid.`).join('\n'), kept: ['soon.\nNote 3: item 3'] },
  { name: 'web mail buttons pasted with a thread', level: 'balanced', input: `${BODY}\n\nReply\nReply all\nForward`, gone: ['Reply', 'Forward'] },
  { name: 'a reply in a sentence stays', level: 'aggressive', input: `${BODY}\nReply to Ann before Friday.`, kept: ['Reply to Ann'] },
  // transport headers of a pasted message
  {
    name: 'transport headers of a message header block go',
    level: 'balanced',
    input: `Message-ID: <5531.1075.JavaMail.ann@host>\nDate: Mon, 14 May 2001 16:39:00 -0700\nFrom: ann@example.com\nTo: bob@example.com\nSubject: Budget\nContent-Type: text/plain; charset=us-ascii\nX-Mailer: Microsoft Outlook\nX-cc: \nX-From: Ann Lee\n\n${BODY}`,
    gone: ['Content-Type', 'X-Mailer', 'X-cc'],
    kept: ['Message-ID: <5531.1075.JavaMail.ann@host>', 'From: ann@example.com', 'Subject: Budget', 'X-From: Ann Lee'],
  },
  {
    name: 'a folded Received header goes whole in aggressive',
    level: 'aggressive',
    input: `Received: from mail.example.com (10.0.0.7)\n  by mx.example.com with SMTP id 77ab\nMIME-Version: 1.0\nFrom: Ann Lee <ann@example.com>\nTo: Bob <bob@example.com>\nSubject: Budget\n\n${BODY}`,
    gone: ['Received', 'by mx.example.com', 'MIME-Version'],
    kept: ['From: Ann Lee <ann@example.com>', 'Subject: Budget'],
  },
  {
    name: 'HTTP response headers stay (no message header)',
    level: 'aggressive',
    input: `HTTP/1.1 429 Too Many Requests\nContent-Type: application/json\nX-RateLimit-Remaining: 0\nRetry-After: 30\n\nWhy does the API answer like this?`,
    kept: ['Content-Type: application/json', 'X-RateLimit-Remaining: 0'],
  },
  {
    name: 'a related heading stays over headlines that stay (they hold a value), goes over those that go',
    level: 'balanced',
    input: `${BODY}\n\nShare this article\n\nMost read\n1. Man rescued from river after two-hour search\n2. Roadworks on A62 to last until September\n\nMore stories\nCouncil approves the new tram depot plan\nResidents fear parking chaos near station\n\nWhat did the council approve?`,
    kept: ['Most read\n1. Man rescued'],
    gone: ['More stories', 'Residents fear'],
  },
  {
    name: 'a related headline over its date stays with the date (the date would read as another headline\'s)',
    level: 'balanced',
    input: `${BODY}\n\nShare this article\n\nRead more\nTeachers ratify a new contract with the district\nJan 22, 2025\nWhere enrollment is falling fastest in the valley\nFeb 10, 2025\n\nWhat is due on Friday?`,
    kept: ['Read more\nTeachers ratify', 'Where enrollment is falling fastest in the valley\nFeb 10, 2025'],
  },
  {
    name: 'a sponsored box goes with its label: headlines and advertisers',
    level: 'balanced',
    input: `${BODY}\n\nSponsored Content\nYou will not believe this trick for sore knees\nFlexo Health\nSeniors are switching to this plan\nCover Partners\n\nWhat is due on Friday?`,
    gone: ['Sponsored Content', 'sore knees', 'Cover Partners'],
    kept: ['What is due on Friday?'],
  },
  {
    name: 'a sponsored label stays over an ad that holds a value (it marks the ad as one)',
    level: 'balanced',
    input: `${BODY}\n\nSponsored Content\nHomeowners are switching to this plan\nEnergyWise Partners\n\nWhat is due on Friday?`,
    kept: ['Sponsored Content\nHomeowners'],
  },
  {
    name: 'a sponsored label over prose stays (it says whose the text is)',
    level: 'balanced',
    input: `${BODY}\n\nSponsored Content\nThis guide to spring planting is brought to you by a local nursery that has served the valley since 1990.\n\nWhat is due on Friday?`,
    kept: ['Sponsored Content\nThis guide to spring planting'],
  },
  {
    name: 'a cookie notice with a value stays, its heading and buttons go',
    level: 'balanced',
    input: `${BODY}\n\nWe value your privacy\nWe and our 143 partners use cookies and similar technologies to store and access information on your device, to personalise content and ads, to measure ad performance and to understand audiences, as set out in the notice that you can open from the link at the bottom of this page at any time you like.\nAccept All\nReject All\nManage Options\n\nWhat is due on Friday?`,
    gone: ['We value your privacy', 'Accept All', 'Manage Options'],
    kept: ['143 partners'],
  },
  { name: 'a Content-Type line in prose stays', level: 'aggressive', input: `Set the header so the server parses the body.\nContent-Type: application/json\n${BODY}`, kept: ['Content-Type: application/json'] },
];

const ORDER: readonly Level[] = LEVELS;

describe('API-09 boilerplate and acknowledgement rules (table)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const out = compressText(c.input, c.level);
      for (const g of c.gone ?? []) assert.ok(!out.includes(g), `${JSON.stringify(g)} should be gone:\n${out}`);
      for (const k of c.kept ?? []) assert.ok(out.includes(k), `${JSON.stringify(k)} should stay:\n${out}`);
      // every level: retention holds and the result is a fixed point
      for (const level of ORDER) {
        const o = compressText(c.input, level);
        const r = checkRetention(c.input, o, level);
        assert.ok(r.ok, `${level}: ${JSON.stringify(r.missing)}`);
        assert.equal(compressText(o, level), o, `${level} not idempotent`);
      }
    });
  }

  it('stays linear on long runs of labels, headlines and menu lines', () => {
    const texts = [
      'Related stories\n'.repeat(40_000),
      'Share\n' + 'Related stories\nA headline of some words\n'.repeat(20_000),
      'Home\nAbout\nBlog\n' + 'home about blog '.repeat(20_000),
      'Newsletter\nEmail\n'.repeat(20_000),
      'Newsletter\n' + 'Subscribe\n'.repeat(40_000) + 'Why?',
      'Was this page helpful?\n'.repeat(40_000),
      'Share this\n' + 'On this page\nA\nB\n'.repeat(20_000),
      'Share this\n' + 'Previous\nA\n'.repeat(40_000),
      'Share this\n' + 'Site Map\nA\n\n'.repeat(40_000),
      'Share this\n' + 'Site Map\n'.repeat(40_000),
      'Home\n'.repeat(30_000) + ('Home '.repeat(70) + '\n').repeat(500),
    ];
    for (const t of texts) {
      const t0 = performance.now();
      for (const level of ORDER) dropBoilerplate(t, level);
      assert.ok(performance.now() - t0 < 2_000, `slow on ${JSON.stringify(t.slice(0, 30))}`);
    }
  });

  it('a related run goes only in a text with other page chrome (notes under "More on X" stay)', () => {
    const notes = 'More on the budget\nRent went up again this year\nFood costs stayed flat overall\n\nWhat should we cut first?';
    assert.ok(compressText(notes, 'aggressive').includes('Rent went up again'));
    const page = `Skip to content\n\n${BODY}\n\n${notes}`;
    const out = compressText(page, 'balanced');
    assert.ok(!out.includes('Rent went up again') && out.includes('What should we cut first?'), out);
  });

  it('a term of a disclaimer said twice stays once', () => {
    const notice = 'This message is intended solely for the addressee. Quoted lead times are estimates and are not guaranteed. If you received this in error, please notify the sender and delete it.';
    const text = `${BODY}\n\n${notice}\n\nBen\n\n${notice}`;
    for (const level of ['balanced', 'aggressive'] as const) assert.equal(compressText(text, level).split('Quoted lead times').length - 1, 1, level);
  });

  it('safe drops none of it', () => {
    for (const c of CASES) {
      if (!c.gone) continue;
      assert.equal(dropBoilerplate(c.input, 'safe'), c.input);
      const out = compressText(c.input, 'safe');
      for (const g of c.gone) if (!g.startsWith('___')) assert.ok(out.includes(g.replace(/^>+ /, '')), `${c.name}: safe lost ${g}`);
    }
  });

  it('stays linear on long adversarial lines', () => {
    const lines = [
      '> '.repeat(50_000),
      'Sent from my ' + 'a '.repeat(50_000),
      '- [' + 'x'.repeat(300) + '](' + 'h'.repeat(60_000),
      'https://x.io/?' + '&utm_a='.repeat(20_000),
      'intended recipient '.repeat(5_000),
    ];
    for (const l of lines) {
      const t0 = performance.now();
      for (const level of ORDER) dropBoilerplate(`Read more:\n${l}\n${l}`, level);
      assert.ok(performance.now() - t0 < 2_000, `slow on ${l.slice(0, 20)}`);
    }
  });
});

describe('API-09 repeated messages of a pasted thread', () => {
  const first = 'Phillip,\n\nCan you send me the May forecast for the west desk by the end of the day?\n\nThanks,\nTim';
  const thread = `Subject: Re: Forecast for May\nFrom: Phillip\nTo: Tim\n\nTim,\n\nHere is the forecast for May, the west desk numbers included.\n\nPhillip\n\n-----Original Message-----\nFrom: Tim\nSubject: Forecast for May\n\n${first}\n\nSubject: Re: Forecast for May\nFrom: Tim\nTo: Phillip\n\nLooks fine, John signed off.\n\n-----Original Message-----\nFrom: Phillip\nSubject: Re: Forecast for May\n\nTim,\n\nHere is the forecast for May, the west desk numbers included.\n\nPhillip`;

  for (const level of LEVELS) {
    it(`${level}: a quoted repeat goes with its greeting and closing; header lines stay whole`, () => {
      const out = compressText(thread, level);
      assert.equal(out.split('Here is the forecast').length, 2, out);
      assert.ok(!/Looks fine, John signed off\.[\s\S]*\nTim,/.test(out), `the repeat's greeting stayed:\n${out}`);
      assert.ok(!/Looks fine, John signed off\.[\s\S]*\nPhillip$/.test(out), `the repeat's closing stayed:\n${out}`);
      // every copy of the header line stays whole, none is cut to "Subject:"
      assert.equal(out.split('Subject: Re: Forecast for May').length - 1, 3, out);
      assert.ok(!/^Subject:\s*$/m.test(out), out);
      assert.ok(checkRetention(thread, out, level).ok);
      assert.equal(compressText(out, level), out);
    });
  }

  it('a quoted signature block goes whole, not only its long lines', () => {
    const sig = '--\nAnn Lee\nHead of Operations | Northwind Traders\n+1 555 0100 | northwind.example';
    const text = `Hi team,\n\nThe offsite is on June 12 at the Lakeside venue, agenda items by May 20.\n\n${sig}\n\nBob: I would like to add the hiring plan.\n\nOn Mon, May 4, 2026 at 10:15 AM Ann Lee <ann@northwind.example> wrote:\n> The offsite is on June 12 at the Lakeside venue, agenda items by May 20.\n>\n> ${sig.replaceAll('\n', '\n> ')}`;
    // (safe keeps the quote markers, and with them the quoted block as it was)
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(text, level);
      assert.equal(out.split('Ann Lee\n').length - 1, 1, `${level}:\n${out}`);
      assert.equal(out.split('+1 555 0100').length - 1, 1, `${level}:\n${out}`);
      assert.ok(checkRetention(text, out, level).ok);
      assert.equal(compressText(out, level), out);
    }
  });

  it('a signature quoted again goes where its first copy lost its quote markers (balanced saves what safe saves)', () => {
    const sig = 'Jae-min Lee\nTalent Acquisition Partner, Engineering\nOrchard and Vale Technologies, Seattle office\n+1 (206) 555-0174 | Seattle, WA';
    const quote = (body: string): string => `> Hi Noor,\n>\n> ${body}\n>\n> Jae-min\n>\n> ${sig.replaceAll('\n', '\n> ')}`;
    const text = `Hi Jae-min,\n\nI accept the revised start date.\n\nNoor\n\nOn Tue, Apr 8, 2025 at 1:26 PM Jae-min Lee <jm@ov.example> wrote:\n${quote('I got approval on both points.')}\n\n-----Original Message-----\nFrom: Noor\nSubject: Re: Offer\n\nTwo questions before I sign.\n\nOn Thu, Apr 3, 2025, 4:10 PM Jae-min Lee <jm@ov.example> wrote:\n\n${quote('The offer letter is attached.')}\n\nQuestion: What salary?`;
    for (const level of LEVELS) {
      const out = compressText(text, level);
      assert.equal(out.split('Talent Acquisition Partner').length - 1, 1, `${level}:\n${out}`);
      assert.ok(checkRetention(text, out, level).ok);
      assert.equal(compressText(out, level), out);
    }
  });

  it('a short line of one signature that another signature holds stays (its quote markers are not words)', () => {
    const amara = '--\nDr. Amara Nwosu\nAssistant Professor, Computational Linguistics\nUniversity of Eastbrook\nRoom 3.14, Hollis Building';
    const quoted = (level: number, body: string): string => body.split('\n').map((l) => `${'> '.repeat(level)}${l}`).join('\n');
    const text = `Thanks, Tomasz.\n\n${amara}\n\nOn Wed, Tomasz wrote:\n${quoted(2, 'It works now.\n\n--\nTomasz Wierzbicki\nPhD candidate | Speech Lab\nUniversity of Eastbrook\nhttps://tomasz.example/')}\n${quoted(4, 'Can you check it?\n\n' + amara)}\n${quoted(5, 'Please book it.\n\n' + amara)}\n\nWhich room?`;
    for (const level of LEVELS) {
      const out = compressText(text, level);
      assert.ok(out.includes('PhD candidate | Speech Lab\n> > University of Eastbrook'), `${level}:\n${out}`);
    }
  });

  it('a short paragraph said again away from a repeat stays', () => {
    const text = `Tim,\n\nThe invoice for March is attached, please check it.\n\nPhillip\n\nTim,\n\nThe invoice for April is attached as well, same terms.\n\nPhillip`;
    assert.equal(compressText(text, 'balanced').split('Phillip').length - 1, 2);
    assert.equal(compressText(text, 'safe').split('Tim,').length - 1, 2);
  });

  it('answer options and labelled turns never go as short repeats', () => {
    const text = `Q: Which is larger?\n\n(A) 3\n\nThe two numbers are compared digit by digit here.\n\nQ: Which is larger?\n\n(A) 3\n\nThe two numbers are compared digit by digit here.`;
    const out = compressText(text, 'safe');
    assert.equal(out.split('(A) 3').length - 1, 2, out);
  });
});

describe('API-09 repeated link-only lines', () => {
  const login = '[Log In](https://example.com/login?client=web)';
  const page = `${login}\n\n[](/)\n\n* [Home](/) | [About](/about)\n\n# Title\n\nThe council approved the budget for 2025 after a long debate.\n\n[](/)\n\n${login}\n\n- [Home](/) | [About](/about)\n\nRead the [full report](https://example.com/r) here.\n\nRead the [full report](https://example.com/r) here.`;
  // (aggressive turns links in prose into their text first)
  for (const level of ['safe', 'balanced'] as const) {
    it(`${level}: each link-only line stays once, its first copy`, () => {
      const out = compressText(page, level);
      assert.equal(out.split(login).length - 1, 1, out);
      assert.equal(out.split('[](/)').length - 1, 1, out);
      assert.equal(out.split('[Home](/) | [About](/about)').length - 1, 1, out);
      assert.ok(out.indexOf(login) < out.indexOf('# Title'), out);
      assert.ok(checkRetention(page, out, level).ok);
      assert.equal(compressText(out, level), out);
    });
  }

  it('a line with words beside its link is no link-only line', () => {
    const text = 'Go [here](https://example.com/d).\n\nok\n\nGo [here](https://example.com/d).';
    // short prose lines (under 4 words) are not repeats to drop; link-only lines are
    assert.equal(compressText(text, 'safe').split('[here]').length - 1, 2);
    assert.equal(compressText(text.replaceAll('Go ', '').replaceAll(').', ')'), 'safe').split('[here]').length - 1, 1);
  });

  it('a share bar pasted again under nested list markers goes too', () => {
    const share = '[](https://www.facebook.com/sharer.php?u=https%3A%2F%2Fexample.com%2Fa)';
    const mail = '[](mailto:?subject=Budget&body=https%3A%2F%2Fexample.com%2Fa)';
    const text = `* ${share}\n* ${mail}\n\n# Budget approved\n\nBy Ann Lee\n\n* * ${share}\n    *   ${mail}\n\nThe council approved the budget for 2025 after a long debate.`;
    for (const level of ['safe', 'balanced'] as const) {
      const out = compressText(text, level);
      assert.equal(out.split(share).length - 1, 1, out);
      assert.equal(out.split(mail).length - 1, 1, out);
      assert.ok(out.includes('By Ann Lee') && out.includes('2025'), out);
      assert.equal(compressText(out, level), out);
    }
  });

  it('a menu pasted again in another layout goes: a line of links that earlier link-only lines all hold', () => {
    const menu = '* [Culture](/culture)\n* [Technology](/technology)\n* [Business](/business)';
    const text = `${menu}\n\n# Budget approved\n\nThe council approved the budget for 2025 after a long debate.\n\n[Culture](/culture) [Technology](/technology) [Business](/business)\n\n[Culture](/culture) [Sport](/sport)`;
    for (const level of ['safe', 'balanced'] as const) {
      const out = compressText(text, level);
      assert.equal(out.split('[Technology](/technology)').length - 1, 1, out);
      // a line with a link not seen before stays whole
      assert.ok(out.endsWith('[Culture](/culture) [Sport](/sport)'), out);
      assert.ok(checkRetention(text, out, level).ok);
      assert.equal(compressText(out, level), out);
    }
  });

  it('a repeated block with a link line still goes as a block', () => {
    const block = 'Ann Lee\n[Profile](https://example.com/ann)\nEditor';
    const text = `${block}\n\nThe council approved the budget for 2025 after a long debate.\n\n${block}`;
    const out = compressText(text, 'safe');
    assert.equal(out.split('Editor').length - 1, 1, out);
    assert.equal(out.split('Ann Lee').length - 1, 1, out);
  });
});

describe('API-09 a menu run in a browser copy keeps the lines beside it', () => {
  it('the headline above a share bar, the byline or a field label under it stay; the bar goes', () => {
    const news = 'Skip to main content\nPort to cut jobs as automation is brought forward\nShare\nFacebook\nX\nEmail\nMaria Okonkwo\nBusiness correspondent\nThe Port of Eastmouth will cut hundreds of jobs over the next two years, the operator said on Tuesday.\nPrivacy Policy\nTerms of Use\nContact us\n\nWho wrote the article?';
    const recipe = 'Skip to main content\nApple cake\nShare\nFacebook\nEmail\nPrep time\n20 min\nBake time\n45 min\nMix the flour and the butter, then add the apples and bake until golden.\n\nHow long do I need to prepare it?';
    for (const level of ['balanced', 'aggressive'] as const) {
      const a = compressText(news, level);
      for (const kept of ['Port to cut jobs', 'Maria Okonkwo', 'Business correspondent']) assert.ok(a.includes(kept), `${level}: ${kept}\n${a}`);
      assert.ok(!a.includes('Facebook') && !a.includes('Terms of Use'), a);
      const b = compressText(recipe, level);
      for (const kept of ['Apple cake', 'Prep time\n20 min']) assert.ok(b.includes(kept), `${level}: ${kept}\n${b}`);
      assert.ok(!b.includes('Facebook'), b);
    }
  });

  it("a posting's title and place under its share bar stay, however many lines, when one reads as text", () => {
    const job = 'Skip to main content\nOpen Roles\nTeams\nBenefits\nSign in\nShare this job\nCopy link\nEmail\nSenior Data Engineer, Platform\nEngineering\nDenver, CO (Hybrid)\nFull-time\nReq ID: R-20417\nThe base salary range for this role is $118,000 to $142,000 per year.\n\nWhere is the role based?';
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(job, level);
      for (const kept of ['Senior Data Engineer, Platform', 'Engineering', 'Denver, CO (Hybrid)', 'Full-time']) assert.ok(out.includes(kept), `${level}: ${kept}\n${out}`);
      assert.ok(!out.includes('Open Roles') && !out.includes('Copy link'), out);
    }
  });

  it('three or more section names before the first known label go with the menu', () => {
    const page = 'World\nPolitics\nBusiness\nHome\nAbout us\nContact us\n\nThe council approved the budget for 2025 after a long debate on Monday.';
    const out = compressText(page, 'balanced');
    assert.ok(!out.includes('Politics') && !out.includes('About us'), out);
  });
});

describe('API-09 disclaimers and print notices in other languages', () => {
  const de = 'Diese E-Mail enthält vertrauliche und/oder rechtlich geschützte Informationen. Wenn Sie nicht der richtige Adressat sind oder diese E-Mail irrtümlich erhalten haben, informieren Sie bitte sofort den Absender und vernichten Sie diese Mail. Das unerlaubte Kopieren sowie die unbefugte Weitergabe dieser Mail sind nicht gestattet.';
  const fr = "Ce message et ses pièces jointes sont confidentiels et destinés exclusivement à leurs destinataires. Si vous avez reçu ce message par erreur, merci de le supprimer et d'en avertir l'expéditeur.";
  const es = 'Antes de imprimir este mensaje, asegúrese de que es necesario. Proteger el medio ambiente está en nuestras manos.';
  it('go in balanced like the English ones; an instruction that names two of their words stays', () => {
    const text = `Hallo Jonas,\n\ndie Rechnung kommt am Freitag.\n\nAnna\n\n${de}\n\n${fr}\n\n${es}\n\nWann kommt die Rechnung?`;
    const out = compressText(text, 'balanced');
    for (const gone of ['irrtümlich', 'par erreur', 'imprimir']) assert.ok(!out.includes(gone), `${gone}\n${out}`);
    assert.ok(out.includes('die Rechnung kommt am Freitag.') && checkRetention(text, out, 'balanced').ok, out);
    const instruction = 'Hallo Jonas,\n\nbitte löschen Sie die vertrauliche Datei aus dem Ordner, sobald der Absender sie bestätigt hat.\n\nAnna';
    assert.ok(compressText(instruction, 'balanced').includes('bitte löschen Sie die vertrauliche Datei'));
    assert.equal(compressText(text, 'safe').includes('irrtümlich'), true);
  });
});

describe('API-09 page chrome in other languages', () => {
  it('skip links, share and print buttons, a cookie notice and its buttons, a feedback widget go in balanced', () => {
    const page = "Aller au menu\nAller à la recherche\nGestion des cookies\nCe site utilise des cookies pour mesurer l'audience. Vous pouvez accepter ou refuser ces cookies.\nTout accepter\nTout refuser\nPersonnaliser\nCarte d'identité : renouvellement\nImprimer\nEnvoyer par e-mail\nCopier le lien\nVous pouvez demander le renouvellement de votre carte d'identité en mairie, sur rendez-vous.\nCette page vous a-t-elle été utile ?\nOui\nNon\n\nOù faire la demande ?";
    const out = compressText(page, 'balanced');
    for (const gone of ['Aller au menu', 'Tout accepter', 'utilise des cookies', 'Copier le lien', 'utile ?', '\nOui']) assert.ok(!out.includes(gone), `${gone}\n${out}`);
    for (const kept of ["Carte d'identité : renouvellement", 'en mairie, sur rendez-vous.', 'Où faire la demande ?']) assert.ok(out.includes(kept), `${kept}\n${out}`);
    // a sentence about cookies in a recipe stays
    assert.ok(compressText('Nous utilisons des cookies au chocolat pour ce dessert.\n\nCombien ?', 'balanced').includes('cookies au chocolat'));
  });
});

describe('API-09 a question above a menu run', () => {
  const footer = 'Questions\nHelp\nAbout\nPress\nPrivacy Policy\nTerms of Service\nContact Us';
  it('protects the run when it opens its paragraph (the user asks about the list), not when it is a pasted headline', () => {
    const pasted = `Skip to main content\nThe answer explains why sort() compares strings by default in every engine.\nHot Network Questions\nWhy do engines not use turbochargers more often?\nIs it rude to decline a handshake?\n${footer}\n\nWhy is my sort wrong?`;
    const out = compressText(pasted, 'balanced');
    assert.ok(!out.includes('Terms of Service') && out.includes('compares strings by default'), out);
    const asked = `Which of these links does the footer show?\n${footer}`;
    assert.ok(compressText(asked, 'balanced').includes('Terms of Service'));
  });
});

/** A prompt of eval/data/compress-handmade by its id. */
function handmade(file: string, id: string): { id: string; prompt: string } {
  return readFileSync(new URL(`../eval/data/compress-handmade/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; prompt: string })
    .find((r) => r.id === id)!;
}

describe('a disclaimer said again', () => {
  it('keeps its sentence with a value once in balanced', () => {
    const note = 'This e-mail is confidential and intended solely for the addressee. Valence Hydraulics SAS, capital 4 200 000 EUR, RCS Besancon 512 884 301. Any copying is strictly prohibited.';
    const text = `Please confirm the order for Tuesday.\n\n${note}\n\nThe pallets leave on Friday morning.\n\n${note}`;
    const out = compressText(text, 'balanced');
    assert.equal(out.split('RCS Besancon 512 884 301').length, 2, out);
  });

  it('leaves no rules behind that framed it (an Outlook thread of a law firm)', () => {
    const record = handmade('structured.jsonl', 'email-original-message');
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(record.prompt, level);
      assert.ok(!/^---\n---$/m.test(out), `${level}: ${out}`);
    }
  });
});

describe('a signature said again', () => {
  it('goes whole or stays whole, never leaving a bare "Tel:" (a thread quoted four levels deep)', () => {
    const record = handmade('structured2.jsonl', 'email-01-gmail-nested');
    for (const level of ['safe', 'balanced', 'aggressive'] as const) {
      const out = compressText(record.prompt, level);
      assert.ok(!/^[> ]*Tel:[ \t]*$/m.test(out), `${level}: ${out}`);
    }
  });
});
