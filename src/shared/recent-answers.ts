/**
 * `compute` with its answers for the last few distinct arguments kept (at most `size`; then the
 * memory starts over, so it stays bounded). For pure functions called again and again with the same
 * few arguments: the instants of one write, a handful of language tags.
 */
export function recentAnswers<TArgument, TAnswer>(compute: (argument: TArgument) => TAnswer, size: number): (argument: TArgument) => TAnswer {
  const answers = new Map<TArgument, TAnswer>();
  return (argument) => {
    const known = answers.get(argument);
    if (known !== undefined || answers.has(argument)) return known as TAnswer;
    const answer = compute(argument);
    if (answers.size >= size) answers.clear();
    answers.set(argument, answer);
    return answer;
  };
}
