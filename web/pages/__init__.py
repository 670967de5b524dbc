"""What every page is built from, below every feature and importing none: a page's table sections
and downloads (`sections`), the site's tables and the ones several features show (`tables`), the
matchday grids (`grid_table`), the columns (`columns`), names with tooltips (`names`), names typed
into a form found among the players (`typed_names`), the day a page shows (`as_at`), numbers and
dates (`formatting`), paging, the chart, who may enter results (`access`), the admin's answer to a
save that lost a race (`clashes`) and the pages that say what went wrong (`errors`)."""
