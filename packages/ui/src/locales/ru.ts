import type { UiMessages } from "./en";

export const ru: UiMessages = {
  loading: "Загрузка…",
  empty: "Здесь пока ничего нет",
  error: "Не удалось загрузить",
  retry: "Повторить",
  save: "Сохранить",
  cancel: "Отмена",
  delete: "Удалить",
  edit: "Изменить",
  create: "Создать",
  close: "Закрыть",
  confirm: "Подтвердить",
  actions: "Действия",
  language: "Язык",
  signOut: "Выйти",
  signingIn: "Выполняется вход…",
  signInFailed: "Не удалось войти",
  signInAgain: "Войти снова",
  userMenu: "Меню пользователя",
  navigation: "Навигация",
  total: "Итого",
  networkError: "Сервер недоступен. Проверьте подключение и повторите попытку.",
  unexpectedError: "Что-то пошло не так. Повторите попытку.",
  keyboardHint: "Enter — сохранить, Esc — отмена",
  number: {
    required: "Обязательное поле",
    formatHint: "Вводите так: {{example}}",
    postsAs: "Будет проведено: {{value}}",
    notANumber: "«{{typed}}» — не число. Введите цифры, например {{example}}",
    exponent: "«{{typed}}» — так компьютер записывает {{full}}: введите число полностью",
    exponentGeneric:
      "«{{typed}}» — так компьютер записывает числа: введите число полностью, например {{example}}",
    commaDecimal:
      "Запятая здесь разделяет тысячи, поэтому «{{typed}}» — не число. Дробную часть отделите точкой: {{reading}}",
    pointGrouping:
      "Точка здесь отделяет дробную часть, поэтому «{{typed}}» — не число. Тысячи разделите запятыми: {{reading}}",
    otherConvention:
      "«{{typed}}» записано по-английски; по-русски дробную часть отделяет запятая, а тысячи — пробелы. Введите {{reading}}",
    ambiguous: "«{{typed}}» можно прочитать как {{first}} или как {{second}}: введите то, что имеете в виду",
    grouping:
      "«{{typed}}» не читается как число: тысячи разделяются группами по три цифры, например {{example}}",
    fractionDigitsAmount:
      "В сумме {{currency}} не больше {{max}} знаков после запятой, а в «{{typed}}» их {{count}}",
    fractionDigitsWhole: "Сумма в {{currency}} — целое число: введите её без дробной части",
    fractionDigitsRate: "В курсе не больше {{max}} знаков после запятой, а в «{{typed}}» их {{count}}",
    groupedHint: "Может быть, имелось в виду {{grouped}}?",
    tooLarge: "«{{typed}}» — слишком большое число: не больше {{max}}",
    tooManyDigits: "В курсе не больше {{max}} цифр до запятой",
    notPositive: "Должно быть больше нуля",
    negative: "Не может быть отрицательным",
  },
  date: {
    pattern: "дд.мм.гггг",
    format: "«{{typed}}» — не дата: введите её как {{pattern}}, например {{example}}",
    noMonth: "«{{typed}}» — не дата: месяца {{month}} нет",
    noDay: "«{{typed}}» — не дата: этот месяц заканчивается {{lastDay}}",
    range: "«{{typed}}» — вне учёта: введите дату с {{first}} по {{last}}",
  },
};
