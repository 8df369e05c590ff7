"""Understanding a question: dates, the table vocabulary, the planner and offline text-to-SQL."""
