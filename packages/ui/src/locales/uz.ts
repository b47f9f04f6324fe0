import type { UiMessages } from "./en";

export const uz: UiMessages = {
  loading: "Yuklanmoqda…",
  empty: "Hozircha bu yerda hech narsa yoʻq",
  error: "Yuklab boʻlmadi",
  retry: "Qayta urinish",
  save: "Saqlash",
  cancel: "Bekor qilish",
  delete: "Oʻchirish",
  edit: "Tahrirlash",
  create: "Yaratish",
  close: "Yopish",
  confirm: "Tasdiqlash",
  actions: "Amallar",
  language: "Til",
  signOut: "Chiqish",
  signingIn: "Kirilmoqda…",
  signInFailed: "Kirib boʻlmadi",
  signInAgain: "Qayta kirish",
  userMenu: "Foydalanuvchi menyusi",
  navigation: "Navigatsiya",
  total: "Jami",
  networkError: "Serverga ulanib boʻlmadi. Ulanishni tekshirib, qayta urinib koʻring.",
  unexpectedError: "Nimadir notoʻgʻri ketdi. Qayta urinib koʻring.",
  keyboardHint: "Enter — saqlash, Esc — bekor qilish",
  number: {
    required: "Majburiy maydon",
    formatHint: "Shunday kiriting: {{example}}",
    postsAs: "Oʻtkaziladi: {{value}}",
    notANumber: "“{{typed}}” son emas. Raqamlarni kiriting, masalan {{example}}",
    exponent: "“{{typed}}” — kompyuter {{full}} sonini shunday yozadi: sonni toʻliq kiriting",
    exponentGeneric:
      "“{{typed}}” — kompyuter sonlarni shunday yozadi: sonni toʻliq kiriting, masalan {{example}}",
    commaDecimal:
      "Bu yerda vergul minglarni ajratadi, shuning uchun “{{typed}}” son emas. Kasr qismini nuqta bilan ajrating: {{reading}}",
    pointGrouping:
      "Bu yerda nuqta kasr qismini ajratadi, shuning uchun “{{typed}}” son emas. Minglarni vergul bilan ajrating: {{reading}}",
    otherConvention:
      "“{{typed}}” inglizcha yozilgan; oʻzbekchada kasr qismi vergul bilan, minglar esa boʻsh joy bilan ajratiladi. {{reading}} deb kiriting",
    ambiguous: "“{{typed}}” ni {{first}} yoki {{second}} deb oʻqish mumkin: nazarda tutganingizni kiriting",
    grouping:
      "“{{typed}}” son sifatida oʻqilmaydi: minglar uch raqamli guruhlarga ajratiladi, masalan {{example}}",
    fractionDigitsAmount:
      "{{currency}} summasida verguldan keyin koʻpi bilan {{max}} ta raqam boʻladi, “{{typed}}” da esa {{count}} ta",
    fractionDigitsWhole: "{{currency}} summasi butun son: uni kasr qismisiz kiriting",
    fractionDigitsRate:
      "Kursda verguldan keyin koʻpi bilan {{max}} ta raqam boʻladi, “{{typed}}” da esa {{count}} ta",
    groupedHint: "{{grouped}} demoqchimisiz?",
    tooLarge: "“{{typed}}” juda katta: koʻpi bilan {{max}}",
    tooManyDigits: "Kursda verguldan oldin koʻpi bilan {{max}} ta raqam boʻladi",
    notPositive: "Noldan katta boʻlishi kerak",
    negative: "Manfiy boʻlishi mumkin emas",
  },
  date: {
    pattern: "kk.oo.yyyy",
    format: "“{{typed}}” sana emas: uni {{pattern}} koʻrinishida kiriting, masalan {{example}}",
    noMonth: "“{{typed}}” sana emas: {{month}}-oy yoʻq",
    noDay: "“{{typed}}” sana emas: bu oy {{lastDay}} kuni tugaydi",
    range: "“{{typed}}” hisob davridan tashqarida: {{first}} dan {{last}} gacha boʻlgan sanani kiriting",
  },
};
