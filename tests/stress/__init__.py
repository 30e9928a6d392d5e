"""Long fault and load runs, behind the ``stress`` marker: ``make stress``."""
