DROP INDEX people_search_name;
DROP INDEX people_search_email;
DROP INDEX people_search_username;
